"""The docs stay a guide a newcomer can hold in their head (issue 65): size limits, and no dead relative links."""

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
KB = 1024

PAGE_LIMIT = 30 * KB
DOCS_LIMIT = 120 * KB
MODEL_CARD_LIMIT = 10 * KB
CHANGELOG_LIMIT = 20 * KB

# [text](target) — the target up to the first space or closing parenthesis (an optional "title" may follow)
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# fenced code blocks hold examples, not links
FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def doc_pages() -> list[Path]:
    return sorted(DOCS.glob("*.md"))


def linking_pages() -> list[Path]:
    return [REPO / "README.md", REPO / "CHANGELOG.md", REPO / "models" / "README.md", *doc_pages()]


def relative_links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    targets = [match.group(1) for match in LINK.finditer(text)]
    return [t for t in targets if not re.match(r"^[a-z][a-z0-9+.-]*:", t, re.I) and not t.startswith("#")]


def test_docs_pages_exist():
    names = {page.name for page in doc_pages()}
    assert {"architecture.md", "scoring.md", "reader.md", "training.md", "webapp.md"} <= names


@pytest.mark.parametrize("page", doc_pages(), ids=lambda p: p.name)
def test_each_docs_page_is_at_most_30_kb(page: Path):
    assert page.stat().st_size <= PAGE_LIMIT, f"{page.name}: {page.stat().st_size} bytes"


def test_docs_folder_is_at_most_120_kb():
    total = sum(path.stat().st_size for path in DOCS.rglob("*") if path.is_file())
    assert total <= DOCS_LIMIT, f"docs/ holds {total} bytes"


def test_model_card_and_changelog_sizes():
    card = (REPO / "models" / "README.md").stat().st_size
    changelog = (REPO / "CHANGELOG.md").stat().st_size
    assert card <= MODEL_CARD_LIMIT, f"models/README.md: {card} bytes"
    assert changelog <= CHANGELOG_LIMIT, f"CHANGELOG.md: {changelog} bytes"


@pytest.mark.parametrize("page", linking_pages(), ids=lambda p: str(p.relative_to(REPO)))
def test_every_relative_link_points_to_an_existing_file(page: Path):
    dead = []
    for target in relative_links(page):
        path = unquote(target.split("#", 1)[0])
        if not (page.parent / path).exists():
            dead.append(target)
    assert not dead, f"{page.relative_to(REPO)} links to missing files: {dead}"


def test_the_link_check_finds_links(tmp_path: Path):
    page = tmp_path / "page.md"
    page.write_text("[a](missing.md) [b](https://example.com) [c](#here) [d](x.md#part)\n"
                    "```\n[e](in-code.md)\n```\n", encoding="utf-8")
    assert relative_links(page) == ["missing.md", "x.md#part"]


def test_models_folder_holds_only_shipped_files():
    """models/ holds what the app reads and what retraining starts from, nothing else (CHANGELOG, session 58)."""
    allowed_suffixes = {".onnx", ".pt", ".md"}
    read_by_the_app = {"cards_calibration.json"}  # the confidence calibration behind each card's `sure`
    models = REPO / "models"
    extra = [p.relative_to(models) for p in models.rglob("*")
             if p.is_dir() or (p.suffix not in allowed_suffixes and p.name not in read_by_the_app)]
    assert not extra, f"models/ holds more than the shipped files: {extra}"
    for onnx in models.glob("*.onnx"):
        assert onnx.with_suffix(".pt").is_file(), f"{onnx.name} has no .pt to retrain from"
