// The three shapes of `shardreel jobs` output; see job_scripts.hpp.
#include "render/cli/video/job_scripts.hpp"

#include <sstream>

namespace render {

std::string shell_quote(const std::string& word) {
    if (!word.empty() &&
        word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789_./=:,@+-") == std::string::npos)
        return word;
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string lines_script(const JobList& jobs) {
    std::string out;
    for (const std::string& command : jobs.segments) out += command + "\n";
    return out;
}

namespace {

std::string last_index(const JobList& jobs) { return std::to_string(jobs.segments.size() - 1); }

// The options both jobs share: cores, working directory, partition and time limit.
std::string common_options(const JobList& jobs, const SlurmOptions& options) {
    std::string out = " --cpus-per-task=" + std::to_string(jobs.threads) +
                      " --chdir=" + shell_quote(jobs.workdir);
    if (!options.partition.empty()) out += " --partition=" + shell_quote(options.partition);
    if (!options.time.empty()) out += " --time=" + shell_quote(options.time);
    return out;
}

void slurm_header(std::ostream& out, const JobList& jobs, const SlurmOptions& options) {
    const std::string log = options.log_dir + "/segment-%A_%a";
    out << "#!/bin/bash\n"
        << "# Written by `shardreel jobs --format slurm`: " << jobs.what << ".\n"
        << "# `bash THIS_FILE` submits it: Slurm runs it as an array of one task per segment,\n"
        << "# then a job that assembles the films once every task has succeeded\n"
        << "# (--dependency=afterok; it is cancelled if one fails). It prints both job ids.\n"
        << "# `SLURM_ARRAY_TASK_ID=I bash THIS_FILE` draws segment I here.\n"
        << "#SBATCH --job-name=shardreel-segments\n"
        << "#SBATCH --array=0-" << last_index(jobs) << "\n"
        << "#SBATCH --cpus-per-task=" << jobs.threads << "\n"
        << "#SBATCH --chdir=" << jobs.workdir << "\n"
        << "#SBATCH --output=" << log << ".out\n"
        << "#SBATCH --error=" << log << ".err\n";
    if (!options.partition.empty()) out << "#SBATCH --partition=" << options.partition << "\n";
    if (!options.time.empty()) out << "#SBATCH --time=" << options.time << "\n";
    out << "set -euo pipefail\n\n";
}

void slurm_tasks(std::ostream& out, const JobList& jobs) {
    out << "segment() {\n  case \"$1\" in\n";
    for (std::size_t i = 0; i < jobs.segments.size(); ++i)
        out << "    " << i << ") exec " << jobs.segments[i] << " ;;\n";
    out << "    *) echo \"shardreel: this array has no task $1 (0-" << last_index(jobs)
        << ")\" >&2; exit 2 ;;\n  esac\n}\n\n";
}

void slurm_submit(std::ostream& out, const JobList& jobs, const SlurmOptions& options) {
    const std::string log = shell_quote(options.log_dir) + "/assemble-%j";
    out << "submit() {\n"
        << "  local script array assemble\n"
        << "  script=$(readlink -f -- \"$0\")\n"
        << "  cd " << shell_quote(jobs.workdir) << "\n"
        << "  mkdir -p " << shell_quote(options.log_dir) << "\n"
        << "  array=$(sbatch --parsable \"$script\")\n"
        << "  array=${array%%;*}\n"
        << "  assemble=$(sbatch --parsable --dependency=afterok:\"$array\" "
           "--kill-on-invalid-dep=yes --job-name=shardreel-assemble"
        << common_options(jobs, options) << " --output=" << log << ".out --error=" << log
        << ".err --wrap=" << shell_quote(jobs.assemble) << ")\n"
        << "  echo \"$array ${assemble%%;*}\"\n"
        << "  echo \"shardreel: submitted " << jobs.segments.size()
        << " segment task(s) as job $array and the assemble as job ${assemble%%;*}\" >&2\n"
        << "}\n\n";
}

}  // namespace

std::string slurm_script(const JobList& jobs, const SlurmOptions& options) {
    std::ostringstream out;
    slurm_header(out, jobs, options);
    slurm_tasks(out, jobs);
    slurm_submit(out, jobs, options);
    out << "if [ -n \"${SLURM_ARRAY_TASK_ID:-}\" ]; then\n"
        << "  cd " << shell_quote(jobs.workdir) << "\n"
        << "  segment \"$SLURM_ARRAY_TASK_ID\"\nelse\n  submit\nfi\n";
    return out.str();
}

std::string parallel_script(const JobList& jobs) {
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# Written by `shardreel jobs --format parallel`: " << jobs.what << ".\n"
        << "# `bash THIS_FILE`: GNU parallel draws them, one per " << jobs.threads
        << " cores (the encoder's threads),\n# then, if every one succeeded, the films are "
           "assembled.\n"
        << "set -euo pipefail\n"
        << "cd " << shell_quote(jobs.workdir) << "\n"
        << "parallel --jobs " << 100 / jobs.threads << "% <<'SEGMENTS'\n"
        << lines_script(jobs) << "SEGMENTS\n"
        << jobs.assemble << "\n";
    return out.str();
}

}  // namespace render
