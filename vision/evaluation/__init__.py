"""`python -m vision evaluate`: measures the reader on synthetic validation scenes and the real dev photos."""
