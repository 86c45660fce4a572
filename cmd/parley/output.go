package main

import "github.com/parleyhq/parley/internal/textview"

// Small helpers for human output, shared by the subcommands; the views
// themselves are package textview's.

// plural is one when n is 1, else many (textview.Plural).
func plural(n int, one, many string) string { return textview.Plural(n, one, many) }
