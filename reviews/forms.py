from django import forms


class ReviewNoteForm(forms.Form):
    """Every reviewer's action says why: an empty note is refused."""

    note = forms.CharField(
        label="Note (why)",
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        max_length=4000,
        strip=True,
        error_messages={"required": "A note is required: say why."},
    )
