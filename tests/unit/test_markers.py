"""Generated blocks, at the top level or indented inside an admonition."""

from pycore.sitegen import markers


def test_an_indented_generated_block_is_found_and_its_part_indented_alike():
    page = 'Intro\n\n??? info "Going deeper: x"\n    ```generated\n    lr-sweep\n    ```\n\nAfter\n'
    (match,) = markers.GENERATED.finditer(page)
    assert match.group("indent") == "    " and match.group("body").strip() == "lr-sweep"
    part = "Settings.\n\n| a |\n| ---: |\n| 1 |"
    out = page[:match.start()] + markers.indent(part, match.group("indent")) + page[match.end():]
    assert out == ('Intro\n\n??? info "Going deeper: x"\n    Settings.\n\n    | a |\n    | ---: |\n    | 1 |\n\n'
                   "After\n")


def test_a_top_level_block_is_unchanged_and_a_fence_closed_at_another_indent_is_not_a_block():
    (match,) = markers.GENERATED.finditer("```generated\ntrain-grid\n```\n")
    assert match.group("indent") == "" and markers.indent("a\n\nb", "") == "a\n\nb"
    assert not list(markers.GENERATED.finditer("    ```generated\n    train-grid\n```\n"))
