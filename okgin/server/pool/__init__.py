"""Play online: a pool of players waiting for a table, paired by rating across processes."""
