"""Alembic migrations of the web app (run by webapp.db.run_migrations)."""
