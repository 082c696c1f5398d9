"""python manage.py arena_demo_user"""

import shutil
import subprocess
from io import StringIO
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from accounts.models import Profile

pytestmark = pytest.mark.django_db

EXPECTED = (
    'Demo login: username "demo", password "solitaire-demo" '
    "at http://127.0.0.1:8000/accounts/login/\n"
)


def run(*args):
    out = StringIO()
    call_command("arena_demo_user", *args, stdout=out)
    return out.getvalue()


def test_creates_the_demo_account_and_prints_one_login_line():
    assert run() == EXPECTED

    user = get_user_model().objects.get(username="demo")
    assert user.email == "demo@example.com"
    assert user.is_active
    assert user.check_password("solitaire-demo")
    address = EmailAddress.objects.get(user=user)
    assert (address.email, address.verified, address.primary) == ("demo@example.com", True, True)
    assert Profile.objects.filter(user=user).exists()


def test_is_idempotent_and_resets_the_password():
    run()
    user = get_user_model().objects.get(username="demo")
    user.set_password("changed-by-someone")
    user.save()

    assert run() == EXPECTED
    assert run() == EXPECTED

    assert get_user_model().objects.filter(username="demo").count() == 1
    assert EmailAddress.objects.filter(email="demo@example.com").count() == 1
    assert Profile.objects.count() == 1
    user.refresh_from_db()
    assert user.check_password("solitaire-demo")


def test_demo_account_logs_in_with_username_and_email(client):
    run()

    by_name = client.post("/accounts/login/", {"login": "demo", "password": "solitaire-demo"})
    assert by_name.status_code == 302
    client.post("/accounts/logout/")
    by_email = client.post(
        "/accounts/login/", {"login": "demo@example.com", "password": "solitaire-demo"}
    )
    assert by_email.status_code == 302
    assert client.session["_auth_user_id"] == str(get_user_model().objects.get(username="demo").pk)


def test_username_and_password_options():
    output = run("--username", "tester", "--password", "another-secret-1")

    assert output == (
        'Demo login: username "tester", password "another-secret-1" '
        "at http://127.0.0.1:8000/accounts/login/\n"
    )
    user = get_user_model().objects.get(username="tester")
    assert user.check_password("another-secret-1")
    assert EmailAddress.objects.get(user=user).email == "tester@example.com"


def test_refuses_an_address_that_belongs_to_someone_else(make_user):
    make_user(username="squatter").emailaddress_set.create(
        email="demo@example.com", verified=True, primary=True
    )

    with pytest.raises(CommandError, match="belongs to another account"):
        run()

    assert not get_user_model().objects.filter(username="demo").exists()


def test_the_login_line_names_the_port_and_host_the_server_runs_on():
    assert run("--port", "8101").endswith(" at http://127.0.0.1:8101/accounts/login/\n")
    assert run("--host", "localhost", "--port", "9000").endswith(
        " at http://localhost:9000/accounts/login/\n"
    )


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_run_passes_its_port_to_the_login_line():
    dry_run = subprocess.run(
        ["make", "-n", "run", "PORT=8101"],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "manage.py arena_demo_user --host 127.0.0.1 --port 8101\n" in dry_run
    assert "manage.py runserver 127.0.0.1:8101\n" in dry_run
