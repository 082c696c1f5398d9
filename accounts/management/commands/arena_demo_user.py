from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.errors import DemoUserConflict
from accounts.services import demo_user_ensure

LOGIN_PATH = "/accounts/login/"


class Command(BaseCommand):
    help = (
        "Create the demo account, or reset its password if it exists, with a verified "
        "e-mail address. Safe to run any number of times."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="solitaire-demo")
        parser.add_argument("--email", default=None, help="Defaults to <username>@example.com.")
        parser.add_argument(
            "--host", default="127.0.0.1", help="Where the server listens, for the login link."
        )
        parser.add_argument(
            "--port", type=int, default=8000, help="The server's port, for the login link."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            user = demo_user_ensure(
                username=options["username"],
                password=options["password"],
                email=options["email"],
            )
        except DemoUserConflict as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f'Demo login: username "{user.get_username()}", '
            f'password "{options["password"]}" at '
            f"http://{options['host']}:{options['port']}{LOGIN_PATH}"
        )
