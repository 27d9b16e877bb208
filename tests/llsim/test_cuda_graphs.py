"""The operators model's CUDA graphs through llsim (tests/inputs/serve_operators.yaml: a lone
request on Llama-3-70B over 8 A100s, its prefill alone in the first iteration): a prompt of 1,001
tokens under a graph of up to 2,048 runs its token-wise operators at 1,008 tokens, and its
attention, LM head and CPU work at 1,001, exactly; above cuda_graph_max_tokens
it runs as eagerly; the largest graph defaults to vLLM's (2 x max_batch_size, at most 512 and
max_batch_tokens); decode batches of 5 sequences are padded to 8, so their steps are longer than
eager ones, and batches of 8 are not."""
import csv
import os

from harness import check, check_close, finish, run, run_fails, scratch_dir, summary

SCENARIO = "tests/inputs/serve_operators.yaml"
EXACT = 1e-9
OWN = ("attn_prefill", "lm_head", "cpu_overhead")  # run on the batch, not the graph's size


def prefill(tokens, *sets):
    """(TTFT, {operator: seconds}) of a lone request of `tokens` prompt tokens."""
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out, "--set", f"phases.chat.workload.input_tokens={tokens}"]
    for s in sets:
        args += ["--set", s]
    run(*args)
    with open(os.path.join(out, "chat_operators.csv")) as f:
        ops = {r["operator"]: float(r["seconds"]) for r in csv.DictReader(f)}
    return summary(out)["phases"]["chat"]["mean_ttft_s"], ops


EAGER = "phases.chat.iteration.cuda_graphs=false"
graphed, graphed_ops = prefill(1001, "phases.chat.iteration.cuda_graph_max_tokens=2048")
own, own_ops = prefill(1001, EAGER)
padded, padded_ops = prefill(1008, EAGER)
check_close(graphed, padded - sum(padded_ops[o] - own_ops[o] for o in OWN), EXACT,
            "1,001 tokens under a graph: the token-wise operators of 1,008, attention of 1,001")
for name, seconds in graphed_ops.items():
    expected = (own_ops if name in OWN else padded_ops)[name]
    if expected == 0:  # an operator this dense model on one stage has not
        check(seconds == 0, f"{name} under the graph: {seconds}")
    else:
        check_close(seconds, expected, EXACT, f"{name} under the graph")
check(graphed > own, f"padding costs time: {graphed} s vs {own} s eager")

default, _ = prefill(1001)
check(default == own, f"1,001 tokens exceed the default largest graph (512): eager ({default} vs {own})")
check(prefill(1001, "phases.chat.iteration.cuda_graph_max_tokens=1003")[0] == own,
      "1,001 tokens pad to 1,008, above a largest graph of 1,003: eager")


# The largest graph defaults to vLLM's: 2 x max_batch_size, at most 512 and max_batch_tokens. With
# 64 sequences a batch, 128 tokens: 201 run eagerly, 121 pad to 128.
SMALL = "phases.chat.batching.max_batch_size=64"
check(prefill(201, SMALL)[0] == prefill(201, EAGER)[0], "201 tokens above the largest graph of 2 x 64: eager")
check(prefill(121, SMALL)[1]["attn_pre_proj"] == prefill(128, SMALL)[1]["attn_pre_proj"],
      "121 tokens pad to 128 under a graph of 2 x 64")
check(prefill(121, SMALL, "phases.chat.batching.max_batch_tokens=120")[0] == prefill(121, EAGER)[0],
      "the largest graph is at most max_batch_tokens (120): 121 tokens eager")
run_fails(SCENARIO, "cuda_graph_max_tokens: applies to cuda_graphs: true", EAGER,
          "phases.chat.iteration.cuda_graph_max_tokens=64")


def decode_gap(*sets):
    out = scratch_dir()
    args = ["run", SCENARIO, "--quiet", "--out", out, "--set", "phases.chat.workload.requests=5",
            "--set", "phases.chat.workload.arrival=0s", "--set", "phases.chat.workload.output_tokens=20"]
    for s in sets:
        args += ["--set", s]
    run(*args)
    return summary(out)["phases"]["chat"]["mean_tpot_s"]


check(decode_gap() > decode_gap(EAGER), "5 decoding sequences padded to 8 take longer than eagerly")
EIGHT = "phases.chat.workload.requests=8"
check_close(decode_gap(EIGHT), decode_gap(EIGHT, EAGER), EXACT, "8 decoding sequences are a captured size: no padding")
finish()
