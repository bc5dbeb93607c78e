"""The recall report: memory-layer use against the budget, and held-out runs that show numbers only."""
from context_pack.recall_replay import ProbeResult, ReplayReport, format_report


def _report() -> ReplayReport:
    probe = {"id": "p1", "kind": "identity", "fact": "name"}
    return ReplayReport(results=[
        ProbeResult(probe, True, 1000, [], [], memory_tokens=800),
        ProbeResult({**probe, "id": "p2", "question": "내 이름 기억나?"}, False, 900, ["지우"], [], memory_tokens=600,
                    text="[핵심 정보]\n- 이름: 민지"),
    ])


def test_report_gives_the_memory_layer_mean_against_the_budget():
    lines = format_report(_report(), budget=1100)

    assert "tokens per prompt: mean 950, max 1000 of 1100; memory layer mean 700" in lines
    assert any(line.startswith("FAIL p2 identity:name") for line in lines)


def test_held_out_report_has_numbers_and_no_failure_lines():
    lines = format_report(_report(), budget=1100, failures=False)

    assert not any(line.startswith("FAIL") for line in lines)
    assert any(line.startswith("overall") and "1/2" in line for line in lines)


def test_tuning_report_can_show_the_failed_probes_blocks():
    lines = format_report(_report(), budget=1100, blocks=True)

    failed = lines.index(next(line for line in lines if line.startswith("FAIL p2")))
    assert lines[failed + 1:failed + 4] == ["  question: 내 이름 기억나?", "  | [핵심 정보]", "  | - 이름: 민지"]
    assert not format_report(_report(), budget=1100, failures=False, blocks=True)[-1].startswith("  |")
