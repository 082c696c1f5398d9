from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.errors import DemoUserConflict
from accounts.services import demo_user_ensure

LOGIN_URL = "http://127.0.0.1:8000/accounts/login/"


class Command(BaseCommand):
    help = (
        "Create the demo account, or reset its password if it exists, with a verified "
        "e-mail address. Safe to run any number of times."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument("--password", default="solitaire-demo")
        parser.add_argument("--email", default=None, help="Defaults to <username>@example.com.")

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
            f'password "{options["password"]}" at {LOGIN_URL}'
        )
