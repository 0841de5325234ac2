// The members of everything a chapter's segment is made from (its spec, the film's video, the
// encoder settings), listed once for BinaryDigest (render/film/digest.hpp): the first key hashes
// them, and a test alters every member in turn. Each list is read through a structured binding,
// so a member added to one of these structs stops this compiling until it is listed.
#pragma once
#include <concepts>
#include <tuple>
#include <type_traits>

#include "engine/config.hpp"
#include "render/film/digest.hpp"
#include "render/sinks/video/mp4_sink.hpp"
#include "story/storyboard/storyboard.hpp"

namespace render {

// T is U or const U: each list serves hashing (const) and the test that alters members.
template <class T, class U>
concept Of = std::same_as<std::remove_const_t<T>, U>;

template <class T>
inline constexpr bool is_quantity = false;
template <class Tag>
inline constexpr bool is_quantity<engine::Quantity<Tag>> = true;

// Where text stands in the storyboard file only says where to report a problem: no chapter reads
// it (a chapter moved in its file, or below an edited one, keeps its first key).
template <Of<story::SourcePos> T>
auto fields(Members, T& pos) {
    auto& [line, col] = pos;
    (void)line, (void)col;
    return std::tie();
}

template <Of<story::ChapterSpec> T>
auto fields(Members, T& s) {
    auto& [id, kind, title, subtitle, duration, auto_duration, stretch, narration, config, film,
           beats, figure, explore, explore_beat, pos] = s;
    return std::tie(id, kind, title, subtitle, duration, auto_duration, stretch, narration, config,
                    film, beats, figure, explore, explore_beat, pos);
}
template <Of<story::Beat> T>
auto fields(Members, T& b) {
    auto& [at, over, say, set, rule, mark, gap, marks, take, sound, show, speech, number, pos,
           at_pos, take_pos, sound_pos, say_pos, set_pos, show_pos] = b;
    return std::tie(at, over, say, set, rule, mark, gap, marks, take, sound, show, speech, number,
                    pos, at_pos, take_pos, sound_pos, say_pos, set_pos, show_pos);
}
template <Of<story::Setting> T>
auto fields(Members, T& s) {
    auto& [key, value, pos, value_pos] = s;
    return std::tie(key, value, pos, value_pos);
}
template <Of<story::Bookmark> T>
auto fields(Members, T& b) {
    auto& [name, offset] = b;
    return std::tie(name, offset);
}
template <Of<story::Speech> T>
auto fields(Members, T& s) {
    auto& [seconds, marks, key] = s;
    return std::tie(seconds, marks, key);
}
template <Of<story::ExploreParam> T>
auto fields(Members, T& e) {
    auto& [key, values, pos] = e;
    return std::tie(key, values, pos);
}
template <Of<story::Narration> T>
auto fields(Members, T& n) {
    auto& [engine, voice, wpm, takes, gap, tail, pos, readings] = n;
    return std::tie(engine, voice, wpm, takes, gap, tail, pos, readings);
}
template <Of<story::Reading> T>
auto fields(Members, T& r) {
    auto& [word, reading] = r;
    return std::tie(word, reading);
}
template <Of<story::Music> T>
auto fields(Members, T& m) {
    auto& [file, level, pos] = m;
    return std::tie(file, level, pos);
}
template <Of<story::Video> T>
auto fields(Members, T& v) {
    auto& [width, height, fps, theme, captions, narration, music, lang] = v;
    return std::tie(width, height, fps, theme, captions, narration, music, lang);
}

template <Of<engine::Config> T>
auto fields(Members, T& c) {
    auto& [model, training, cluster, layout] = c;
    return std::tie(model, training, cluster, layout);
}
template <Of<engine::ModelSpec> T>
auto fields(Members, T& m) {
    auto& [name, arch, params, layers, hidden, heads, kv_heads, ffn, vocab, context, experts, top_k,
           shared_experts, dense_layers, dense_ffn, mla, tie_embeddings, dropout] = m;
    return std::tie(name, arch, params, layers, hidden, heads, kv_heads, ffn, vocab, context,
                    experts, top_k, shared_experts, dense_layers, dense_ffn, mla, tie_embeddings,
                    dropout);
}
template <Of<engine::Mla> T>
auto fields(Members, T& m) {
    auto& [q_rank, kv_rank, rope_dim, head_dim, v_head_dim] = m;
    return std::tie(q_rank, kv_rank, rope_dim, head_dim, v_head_dim);
}
template <Of<engine::Training> T>
auto fields(Members, T& t) {
    auto& [precision, grad_dtype, optimizer, seq_len, micro_batch, micro_batches, recompute,
           flash_attention, sequence_parallel, schedule, chunks, mfu, overlap, step_time,
           capacity_factor, grad_accum_dtype, grad_reduce, cross_entropy] = t;
    return std::tie(precision, grad_dtype, optimizer, seq_len, micro_batch, micro_batches,
                    recompute, flash_attention, sequence_parallel, schedule, chunks, mfu, overlap,
                    step_time, capacity_factor, grad_accum_dtype, grad_reduce, cross_entropy);
}
template <Of<engine::Cluster> T>
auto fields(Members, T& c) {
    auto& [gpu, gpus_per_node, nodes, nvlink, network] = c;
    return std::tie(gpu, gpus_per_node, nodes, nvlink, network);
}
template <Of<engine::GpuSpec> T>
auto fields(Members, T& g) {
    auto& [name, memory, bf16_dense_tflops, nvlink, network, fp8_dense_tflops, tf32_dense_tflops,
           pcie, host_memory] = g;
    return std::tie(name, memory, bf16_dense_tflops, nvlink, network, fp8_dense_tflops,
                    tf32_dense_tflops, pcie, host_memory);
}
template <class T>
requires is_quantity<std::remove_const_t<T>>
auto fields(Members, T& q) {
    auto& [value] = q;
    return std::tie(value);
}
template <Of<engine::Parallel> T>
auto fields(Members, T& p) {
    auto& [gpus, tp, pp, zero, ep, cp, cp_mode, shard_group, offload, cp_split, pipeline_split] = p;
    return std::tie(gpus, tp, pp, zero, ep, cp, cp_mode, shard_group, offload, cp_split,
                    pipeline_split);
}

template <Of<EncoderSettings> T>
auto fields(Members, T& e) {
    auto& [preset, crf, tune, threads, gop_seconds, rc_lookahead] = e;
    return std::tie(preset, crf, tune, threads, gop_seconds, rc_lookahead);
}

}  // namespace render
