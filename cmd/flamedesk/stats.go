package main

import "io"

// runStats is a placeholder until the stats subcommand lands.
func runStats(args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "stats: not implemented yet")
}
