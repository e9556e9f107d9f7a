"""Chinese search words by content: the search plugin splits a Chinese page's words with jieba, which takes a
second to load its dictionary and another to cut the site's text, in every build. Each text's cut is kept in the
build's cache (``.cache/search-words-*``) under the versions of jieba, its dictionary and Material, so a build whose
Chinese text did not change loads no dictionary; jieba's own dictionary cache goes there too."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from importlib.metadata import version

from ..cache import CACHE, kept

KIND = "search-words"
"""The cache's kind for the cut texts: a folder ``.cache/search-words-<hash of the versions>/``."""


def dictionary_digest(jieba) -> str:
    """The hash of jieba's word list, which its prefix dictionary and every cut depend on."""
    with jieba.get_dict_file() as words:
        return hashlib.sha256(words.read()).hexdigest()[:12]


def cached(segment: Callable[[object, str], str], inputs: bytes) -> Callable[[object, str], str]:
    """``segment`` (the search index's method) answering from the cache, by the text and ``inputs``."""
    def segment_kept(index: object, data: str) -> str:
        return kept(KIND, inputs, data, lambda: segment(index, data))
    segment_kept.kept = True
    return segment_kept


def keep_in_cache() -> None:
    """Point jieba's prefix dictionary at the build's cache, named by the hash of its word list (not
    ``jieba.cache`` in the system's temporary folder: one folder holds all a build keeps), and make the search
    plugin's Chinese cut read each text's cut from the cache. Without jieba the plugin cuts nothing."""
    try:
        import jieba
        from material.plugins.search import plugin
    except ImportError:
        return
    digest = dictionary_digest(jieba)
    CACHE.mkdir(parents=True, exist_ok=True)
    jieba.dt.tmp_dir, jieba.dt.cache_file = str(CACHE), f"jieba-{digest}.cache"
    if not getattr(plugin.SearchIndex._segment_chinese, "kept", False):
        inputs = f"{version('jieba')} {digest} {version('mkdocs-material')}".encode()
        plugin.SearchIndex._segment_chinese = cached(plugin.SearchIndex._segment_chinese, inputs)
