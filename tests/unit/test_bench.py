"""make bench's Lighthouse table: a mark on each number that misses the issue's targets, none on the rest."""

from __future__ import annotations

from tests.bench import LIGHTHOUSE_TARGETS, lighthouse_table


def row(**changes) -> dict:
    """A result that meets every target exactly, with the given fields changed."""
    t = LIGHTHOUSE_TARGETS
    base = {"page": "/step-5/", "performance": t["performance"], "fcp": 1700, "lcp": t["lcp"], "tbt": t["tbt"],
            "cls": t["cls"], "accessibility": 100, "best-practices": 100, "seo": 100, "benchmarkIndex": 1076,
            "failed": [], "error": None}
    return {**base, **changes}


def cells(table: str, page: str) -> list[str]:
    line = next(line for line in table.splitlines() if line.startswith(page + " "))
    return line.split()


def test_a_page_at_every_target_has_no_mark_and_shows_the_machines_cpu_index():
    table = lighthouse_table([row()])
    assert cells(table, "/step-5/") == ["/step-5/", "95", "1.7", "s", "2.5", "s", "200", "ms", "0.050",
                                        "100", "100", "100", "1076"]


def test_each_number_past_its_target_is_marked_and_the_failed_audits_are_listed():
    table = lighthouse_table([row(page="/long-rows/", performance=94, lcp=2501, tbt=201, cls=0.051, seo=99,
                                  benchmarkIndex=812, failed=["total-blocking-time"])])
    assert cells(table, "/long-rows/") == ["/long-rows/", "94", "*", "1.7", "s", "2.5", "s", "*", "201", "ms", "*",
                                           "0.051", "*", "100", "100", "99", "*", "812", "total-blocking-time"]


def test_a_page_lighthouse_could_not_load_says_why_instead_of_numbers():
    table = lighthouse_table([{"page": "/embed/x/", "error": "NO_FCP: the page painted nothing"}])
    assert cells(table, "/embed/x/") == ["/embed/x/", "error", "NO_FCP:", "the", "page", "painted", "nothing"]
