package main

// Small helpers for human output, shared by the subcommands.

// orDash renders an empty field as "-" in a table.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
