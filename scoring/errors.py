"""The one error type of the scoring package."""


class ScoringError(ValueError):
    """Invalid input to the scoring engine; ``str(err)`` is one line meant for a person."""

    def __init__(self, message: str) -> None:
        # Keep the promise that the message is a single line, whatever was interpolated into it.
        super().__init__(" ".join(str(message).split()))
