"""Training code for the card reader's models (needs the `train` extra; never imported by the server)."""
