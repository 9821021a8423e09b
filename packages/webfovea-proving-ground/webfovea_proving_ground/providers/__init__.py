"""Loopback model servers that answer with the oracle in the official SDKs' own shapes."""
