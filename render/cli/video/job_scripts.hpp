// What `shardreel jobs` prints: the commands that draw the missing segments, as plain lines, as
// a self-submitting Slurm array script, or as a GNU parallel script, each with the render that
// assembles the films once every segment is in the shared cache.
#pragma once
#include <string>
#include <vector>

namespace render {

// Single-quoted for sh unless every character is plainly safe.
std::string shell_quote(const std::string& word);

struct JobList {
    std::vector<std::string> segments;  // one shell command per missing segment, in order
    std::string assemble;               // the render that assembles the films from the cache
    std::string workdir;                // absolute directory the commands' paths are relative to
    std::string what;                   // "the segments of a.yaml, b.yaml into out/cache"
    int threads = 2;                    // cores one segment's encoder keeps busy
};

struct SlurmOptions {
    std::string partition, time, log_dir;
};

// One command a line, nothing else (the default: for xargs -P, parallel, a Kubernetes Job).
std::string lines_script(const JobList& jobs);
// A bash script that, run with `bash FILE`, submits itself with sbatch as an array of one task
// per segment (--cpus-per-task: the encoder's threads) and then the assemble job with
// --dependency=afterok on the array; run by Slurm, task $SLURM_ARRAY_TASK_ID draws its segment.
std::string slurm_script(const JobList& jobs, const SlurmOptions& options);
// A bash script: GNU parallel draws the segments (one per `threads` cores), then the assemble.
std::string parallel_script(const JobList& jobs);

}  // namespace render
