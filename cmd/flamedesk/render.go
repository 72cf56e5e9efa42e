package main

import "io"

// runRender is a placeholder until the render subcommand lands.
func runRender(args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "render: not implemented yet")
}
