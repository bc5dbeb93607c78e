"""The pages' words are data: every language has every key, and names take the right particle."""
import pytest

from portal.strings import STRINGS, fill


def test_every_language_has_every_key():
    keys = {language: set(words) for language, words in STRINGS.items()}
    assert keys["ko"] == keys["en"]


def test_every_category_has_a_label():
    from memories.categories import MemoryCategory

    for words in STRINGS.values():
        assert all(f"cat_{category.value}" in words for category in MemoryCategory)


@pytest.mark.parametrize("name, remembers, with_", [("춘심", "춘심이 기억하는 것", "춘심과의"),
                                                    ("소라", "소라가 기억하는 것", "소라와의"),
                                                    ("유나", "유나가 기억하는 것", "유나와의")])
def test_a_name_takes_the_particle_of_its_last_sound(name, remembers, with_):
    assert fill(STRINGS["ko"]["what_it_remembers"], name=name) == remembers
    assert fill(STRINGS["ko"]["confirm_character"], name=name).startswith(with_)
