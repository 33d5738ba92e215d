"""Tests of the project's JSON Schemas and of migrator.judge.schemas."""
