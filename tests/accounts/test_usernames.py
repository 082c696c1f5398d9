"""Look-alike usernames are refused at sign-up and in the admin (the only rename).

Non-Latin letters are written as escapes so that the source shows which is which.
"""

import html
import importlib

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.forms import ArenaUserChangeForm, ArenaUserCreationForm
from accounts.models import UsernameSkeleton
from accounts.usernames import username_mixed_script, username_skeleton
from tests.accounts.conftest import PASSWORD, error_texts

CYRILLIC_A = "\u0430"
CYRILLIC_ES_O_ER = "\u0441\u043e\u0440"  # looks like Latin "cop"
GREEK_OMICRON = "\u03bf"
FULLWIDTH_BOB = "\uff42\uff4f\uff42"
LOOKALIKE = "This username looks the same as another player's name. Please choose a different one."
TAKEN = "A user with that username already exists."


def errors(response) -> list[str]:
    return [html.unescape(text) for text in error_texts(response)]


def mixed_message(characters: str, script: str, among: str) -> str:
    return (
        f"This username mixes alphabets with letters that look alike: {characters} "
        f"({script}) among {among} letters. Please use letters of one alphabet."
    )


class TestSkeleton:
    @pytest.mark.parametrize(
        ("first", "second"),
        [
            ("alice", f"{CYRILLIC_A}lice"),
            ("cop", CYRILLIC_ES_O_ER),
            ("Alice", "alice"),
            ("Ian", "lan"),
            ("bOb", "b0b"),
            ("bob", FULLWIDTH_BOB),
            ("bob", f"b{GREEK_OMICRON}b"),
            ("user_l", "user_1"),
            ("Jose\u0301", "Jos\u00e9"),
        ],
    )
    def test_look_alikes_share_a_skeleton(self, first, second):
        assert username_skeleton(first) == username_skeleton(second)

    @pytest.mark.parametrize(
        ("first", "second"),
        [("alice", "alicia"), ("ian", "lan"), ("bob", "b0b"), ("mr.x", "mr-x"), ("dmitry", "dima")],
    )
    def test_different_names_keep_different_skeletons(self, first, second):
        assert username_skeleton(first) != username_skeleton(second)

    @pytest.mark.parametrize(
        "name", ["alice", "jos\u00e9_92", "\u0434\u043c\u0438\u0442\u0440\u0438\u0439", "mr.x+1"]
    )
    def test_one_alphabet_is_not_mixed(self, name):
        assert username_mixed_script(name) is None

    def test_a_cyrillic_letter_among_latin_ones_is_mixed(self):
        mixed = username_mixed_script(f"p{CYRILLIC_A}ypal")

        assert mixed is not None
        assert (mixed.characters, mixed.script, mixed.among) == (CYRILLIC_A, "Cyrillic", "Latin")

    def test_alphabets_whose_letters_look_different_may_mix(self):
        assert username_mixed_script("\u65e5\u672calice") is None  # Han and Latin


@pytest.mark.django_db
class TestSignUp:
    def sign_up(self, client, username):
        return client.post(
            reverse("account_signup"),
            {
                "username": username,
                "email": "newcomer@example.com",
                "password1": "a-long-enough-secret",
                "password2": "a-long-enough-secret",
            },
        )

    def test_a_cyrillic_a_beside_latin_letters_is_refused(self, client, alice):
        response = self.sign_up(client, f"{CYRILLIC_A}lice")

        assert response.status_code == 200
        assert errors(response) == [mixed_message(f'"{CYRILLIC_A}"', "Cyrillic", "Latin")]
        assert get_user_model().objects.count() == 1

    def test_mixed_alphabets_are_refused_even_when_no_one_has_the_look_alike(self, client):
        response = self.sign_up(client, f"p{CYRILLIC_A}ypal")

        assert errors(response) == [mixed_message(f'"{CYRILLIC_A}"', "Cyrillic", "Latin")]
        assert not get_user_model().objects.exists()

    def test_a_cyrillic_name_that_looks_like_a_latin_one_is_refused(self, client, make_user):
        make_user(username="cop")

        response = self.sign_up(client, CYRILLIC_ES_O_ER)

        assert errors(response) == [LOOKALIKE]
        assert not get_user_model().objects.filter(username=CYRILLIC_ES_O_ER).exists()

    def test_a_latin_name_that_looks_like_a_cyrillic_one_is_refused(self, client, make_user):
        make_user(username=CYRILLIC_ES_O_ER)

        response = self.sign_up(client, "cop")

        assert errors(response) == [LOOKALIKE]
        assert not get_user_model().objects.filter(username="cop").exists()

    @pytest.mark.parametrize("lookalike", ["lan", "lAN"])
    def test_a_name_that_reads_the_same_is_refused(self, client, make_user, lookalike):
        make_user(username="Ian")

        assert errors(self.sign_up(client, lookalike)) == [LOOKALIKE]

    def test_a_fullwidth_name_is_the_plain_name(self, client, make_user):
        make_user(username="bob")

        assert errors(self.sign_up(client, FULLWIDTH_BOB)) == [TAKEN]

    def test_a_fullwidth_name_is_stored_plain(self, client):
        response = self.sign_up(client, FULLWIDTH_BOB)

        assert response.status_code == 302
        assert get_user_model().objects.get().username == "bob"
        assert UsernameSkeleton.objects.get().skeleton == "bob"

    def test_a_name_like_no_other_is_accepted(self, client, alice):
        response = self.sign_up(client, "alicia")

        assert response.status_code == 302
        assert get_user_model().objects.filter(username="alicia").exists()


@pytest.mark.django_db
class TestAdmin:
    def test_the_user_admin_uses_the_checking_forms(self):
        user_admin = admin.site._registry[get_user_model()]

        assert user_admin.form is ArenaUserChangeForm
        assert user_admin.add_form is ArenaUserCreationForm

    def test_adding_a_look_alike_in_the_admin_is_refused(self, client, make_user, alice):
        client.force_login(make_user(username="root", is_staff=True, is_superuser=True))

        response = client.post(
            reverse("admin:auth_user_add"),
            {
                "username": f"{CYRILLIC_A}lice",
                "usable_password": "true",
                "password1": "a-long-enough-secret",
                "password2": "a-long-enough-secret",
            },
        )

        assert response.status_code == 200
        assert mixed_message(f'"{CYRILLIC_A}"', "Cyrillic", "Latin") in html.unescape(
            response.content.decode()
        )
        assert not get_user_model().objects.filter(username=f"{CYRILLIC_A}lice").exists()

    def rename(self, user, username):
        form = ArenaUserChangeForm(instance=user)
        data = {name: form.initial.get(name) for name in form.fields if name != "password"}
        data.update(username=username, date_joined=user.date_joined, groups=[], user_permissions=[])
        data = {name: value for name, value in data.items() if value is not None}
        return ArenaUserChangeForm(instance=user, data=data)

    def test_renaming_to_a_look_alike_is_refused(self, make_user, alice):
        bob = make_user(username="bob")

        form = self.rename(bob, "AIice")

        assert not form.is_valid()
        assert form.errors["username"] == [LOOKALIKE]
        bob.refresh_from_db()
        assert bob.username == "bob"

    def test_renaming_to_mixed_alphabets_is_refused(self, make_user):
        bob = make_user(username="bob")

        form = self.rename(bob, f"b{GREEK_OMICRON}b")

        assert form.errors["username"] == [mixed_message(f'"{GREEK_OMICRON}"', "Greek", "Latin")]

    def test_renaming_to_a_fresh_name_works_and_moves_the_skeleton(self, make_user, alice):
        bob = make_user(username="bob")

        form = self.rename(bob, "Robert")
        assert form.is_valid(), form.errors
        form.save()

        assert UsernameSkeleton.objects.get(user=bob).skeleton == username_skeleton("Robert")

    def test_a_name_that_predates_the_check_can_still_be_edited(self, make_user, alice):
        """Changing someone's e-mail does not fail on a name that was already there."""
        twin = make_user(username=f"{CYRILLIC_A}lice")

        form = self.rename(twin, f"{CYRILLIC_A}lice")
        form.data = {**form.data, "email": "twin@example.com"}

        assert form.is_valid(), form.errors

    def test_renaming_oneself_to_another_case_is_no_conflict_with_oneself(self, make_user):
        bob = make_user(username="bob")

        assert self.rename(bob, "Bob").is_valid()


@pytest.mark.django_db
class TestSkeletonRows:
    def test_every_new_user_gets_a_skeleton(self, make_user):
        user = make_user(username="Ian")

        assert UsernameSkeleton.objects.get(user=user).skeleton == username_skeleton("Ian")

    def test_a_login_leaves_the_skeleton_alone(self, client, alice):
        UsernameSkeleton.objects.filter(user=alice).update(skeleton="stale")

        client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})

        assert UsernameSkeleton.objects.get(user=alice).skeleton == "stale"

    def test_the_migration_stores_a_skeleton_for_every_existing_user(self, make_user):
        first, second = make_user(username="alice"), make_user(username=f"{CYRILLIC_A}lice")
        UsernameSkeleton.objects.all().delete()
        migration = importlib.import_module("accounts.migrations.0002_username_skeleton")

        migration.store_skeletons(apps, None)

        assert dict(UsernameSkeleton.objects.values_list("user_id", "skeleton")) == {
            first.pk: "a1ice",
            second.pk: "a1ice",
        }
