"""The References page: every entry says where it appeared, and every link to it lands on an entry."""

import re

from tests.conftest import ROOT

PAGE = (ROOT / "site_src" / "references.md").read_text(encoding="utf-8")
ENTRIES = re.findall(r"\n\n((?:(?!\n\n).)+?)\n\{: #([\w-]+) \}", PAGE, re.S)
VENUE = re.compile(r"NeurIPS \d{4}|ICML \d{4}|ICLR \d{4}|EMNLP \d{4}|Findings of EMNLP|AISTATS \d{4}|CVPR \d{4}|KDD \d{4}|ACL \d{4}|Neurocomputing|JMLR|Springer|"
                   r"arXiv preprint|Technical report|documentation|Unpublished")


def test_every_entry_names_its_venue():
    assert len(ENTRIES) >= 15
    missing = [ident for text, ident in ENTRIES if not VENUE.search(" ".join(text.split()))]
    assert missing == []


def test_every_link_to_the_references_lands_on_an_entry():
    ids = {ident for _, ident in ENTRIES}
    linked = {m for page in (ROOT / "site_src").glob("*.md")
              for m in re.findall(r"references\.md#([\w-]+)", page.read_text(encoding="utf-8"))}
    assert linked and linked <= ids, linked - ids


def test_the_paper_s_empirical_reason_is_quoted_and_cited():
    step6 = " ".join((ROOT / "site_src" / "step-6.md").read_text(encoding="utf-8").split())
    assert ('"outperforms dot product attention without scaling for larger values of \\(d_k\\)" (citing '
            "[Britz et al. 2017](references.md#britz-2017))") in step6
