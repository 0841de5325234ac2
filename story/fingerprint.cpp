// Field-by-field serialisation of specs and engine results for cache keys; see fingerprint.hpp.
#include "story/fingerprint.hpp"

namespace story {

void Fingerprint::item(std::string_view name, std::string_view value) {
    if (!text_.empty() && text_.back() != '{' && text_.back() != '[') text_ += ' ';
    text_.append(name);
    if (!name.empty()) text_ += '=';
    text_.append(value);
}

void Fingerprint::open(std::string_view name, char bracket) {
    if (!text_.empty() && text_.back() != '{' && text_.back() != '[') text_ += ' ';
    text_.append(name);
    text_ += bracket;
}

void Fingerprint::close(char bracket) { text_ += bracket; }

// Quoted, so text containing separators cannot alias another fingerprint.
void Fingerprint::add(std::string_view name, std::string_view text) {
    std::string quoted = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') quoted += '\\';
        quoted += c;
    }
    item(name, quoted + '"');
}

void describe(Fingerprint& f, const engine::ModelSpec& m) {
    f.add("name", m.name), f.add("arch", m.arch), f.add("params", m.params);
    f.add("layers", m.layers), f.add("hidden", m.hidden), f.add("heads", m.heads);
    f.add("kv_heads", m.kv_heads), f.add("ffn", m.ffn), f.add("vocab", m.vocab);
    f.add("context", m.context);
}

void describe(Fingerprint& f, const engine::GpuSpec& g) {
    f.add("name", g.name), f.add("memory", g.memory), f.add("tflops", g.bf16_dense_tflops);
    f.add("nvlink", g.nvlink), f.add("network", g.network);
}

void describe(Fingerprint& f, const engine::Config& c) {
    f.add("model", c.model);
    const engine::Training& t = c.training;
    f.add("precision", t.precision), f.add("grad_dtype", t.grad_dtype), f.add("seq_len", t.seq_len);
    f.add("micro_batch", t.micro_batch), f.add("micro_batches", t.micro_batches);
    f.add("recompute", t.recompute), f.add("flash_attention", t.flash_attention);
    f.add("sequence_parallel", t.sequence_parallel), f.add("schedule", t.schedule);
    f.add("chunks", t.chunks);
    f.add("gpu", c.cluster.gpu), f.add("gpus_per_node", c.cluster.gpus_per_node);
    f.add("nodes", c.cluster.nodes), f.add("nvlink", c.cluster.nvlink);
    f.add("network", c.cluster.network);
    f.add("gpus", c.layout.gpus), f.add("tp", c.layout.tp), f.add("pp", c.layout.pp);
    f.add("zero", c.layout.zero);
}

void describe(Fingerprint& f, const engine::PerGpu& g) {
    f.add("weights", g.weights), f.add("gradients", g.gradients), f.add("optimizer", g.optimizer);
    f.add("activations", g.activations), f.add("total", g.total), f.add("capacity", g.capacity);
    f.add("fits", g.fits);
}

void describe(Fingerprint& f, const engine::Report& r) {
    f.add("params", r.params);
    f.add("bpp_weights", r.bytes_per_param.weights);
    f.add("bpp_gradients", r.bytes_per_param.gradients);
    f.add("bpp_optimizer", r.bytes_per_param.optimizer);
    f.add("model_states", r.model_states), f.add("gpus_to_hold", r.gpus_to_hold_model_states);
    f.add("gpus", r.layout.gpus), f.add("tp", r.layout.tp), f.add("pp", r.layout.pp);
    f.add("zero", r.layout.zero), f.add("per_gpu", r.per_gpu);
    f.add("act_per_layer", r.activations.per_layer);
    f.add("act_layers", r.activations.layers_per_gpu);
    f.add("act_in_flight", r.activations.in_flight_micro_batches);
    f.add("dp_bytes", r.comm.dp_per_gpu), f.add("tp_bytes", r.comm.tp_per_gpu);
    f.add("pp_bytes", r.comm.pp_per_gpu), f.add("dp_time", r.comm.dp_time);
    f.add("tp_time", r.comm.tp_time), f.add("pp_time", r.comm.pp_time);
    f.add("bubble", r.bubble_fraction);
}

void describe(Fingerprint& f, const engine::ChunkTransfer& x) {
    f.add("step", x.step), f.add("gather", x.gather), f.add("chunk", x.chunk);
    f.add("src", x.src), f.add("dst", x.dst);
}

void describe(Fingerprint& f, const engine::RingSchedule& r) {
    f.add("n", r.n), f.add("transfers", r.transfers);
}

void describe(Fingerprint& f, const engine::FsdpEvent& e) {
    f.add("op", e.op), f.add("layer", e.layer), f.add("start", e.start);
    f.add("duration", e.duration), f.add("live", e.live_bytes_after);
}

void describe(Fingerprint& f, const engine::FsdpPlan& p) {
    f.add("layers", p.layers), f.add("shards", p.shards), f.add("sharded", p.sharded_states);
    f.add("layer_full", p.layer_full_bytes), f.add("layer_grad", p.layer_grad_bytes);
    f.add("peak", p.peak_bytes), f.add("events", p.events);
}

void describe(Fingerprint& f, const engine::PipelineSlot& s) {
    f.add("stage", s.stage), f.add("mb", s.micro_batch), f.add("chunk", s.chunk);
    f.add("bwd", s.backward), f.add("start", s.start), f.add("duration", s.duration);
}

void describe(Fingerprint& f, const engine::PipelineSchedule& p) {
    f.add("stages", p.stages), f.add("micro_batches", p.micro_batches), f.add("chunks", p.chunks);
    f.add("kind", p.kind), f.add("slots", p.slots);
}

void describe(Fingerprint& f, const engine::RankPlace& r) {
    f.add("rank", r.rank), f.add("node", r.node), f.add("local", r.local);
    f.add("dp", r.dp), f.add("pp", r.pp), f.add("tp", r.tp);
}

void describe(Fingerprint& f, const engine::Layout3D& l) {
    f.add("gpus", l.gpus), f.add("per_node", l.gpus_per_node), f.add("dp", l.dp);
    f.add("tp", l.tp), f.add("pp", l.pp), f.add("ranks", l.ranks);
}

void describe(Fingerprint& f, const engine::LinkTiming& l) {
    f.add("bytes", l.bytes), f.add("on_nvlink", l.on_nvlink), f.add("on_network", l.on_network);
    f.add("crosses_nodes", l.crosses_nodes);
}

void describe(Fingerprint& f, const engine::LinkTimings& l) {
    f.add("dp", l.dp), f.add("tp", l.tp), f.add("pp", l.pp);
}

void describe(Fingerprint& f, const engine::StrategyConfig& s) {
    f.add("kind", s.kind), f.add("config", s.config);
}

void describe(Fingerprint& f, const engine::TpLinkTimes& t) {
    f.add("nvlink_bw", t.nvlink_bw), f.add("network_bw", t.network_bw);
    f.add("on_nvlink", t.on_nvlink), f.add("on_network", t.on_network);
}

void describe(Fingerprint& f, const engine::ActivationCoefficients& a) {
    f.add("sbh", a.sbh), f.add("linear", a.linear), f.add("scores", a.scores);
}

void describe(Fingerprint& f, const engine::ComputeUnits& u) {
    f.add("forward", u.forward), f.add("backward", u.backward), f.add("recompute", u.recompute);
}

void describe(Fingerprint& f, const Beat& b) {
    f.add("at", b.at), f.add("over", b.over), f.add("say", b.say);
    f.open("set", '[');
    for (const Setting& s : b.set) f.add(s.key, s.value);
    f.close(']');
}

void describe(Fingerprint& f, const ChapterSpec& c) {
    f.add("id", c.id), f.add("kind", c.kind), f.add("title", c.title);
    f.add("subtitle", c.subtitle), f.add("duration", c.duration), f.add("config", c.config);
    f.add("beats", c.beats);
}

std::string spec_fingerprint(const ChapterSpec& spec) {
    Fingerprint f;
    describe(f, spec);
    return f.text();
}

}  // namespace story
