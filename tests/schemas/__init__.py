"""Tests of the project's JSON Schemas and of migrator.schemas."""
