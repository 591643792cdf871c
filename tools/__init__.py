"""Book tooling (not part of the installed package): `make refresh` and `make bench`."""
