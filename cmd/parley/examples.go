package main

import (
	_ "embed"
	"strings"
	"sync"
)

// examplesText is the "Examples:" block of every command's help: a line
// "[path]" (the command's path without "parley "; "[]" is parley itself)
// starts each block. Each line that starts with "parley" is a command line
// a test parses: it names this command and only flags it accepts.
//
//go:embed examples.txt
var examplesText string

// examples are the blocks of examplesText by command path. The map is
// built on first use, not at start-up.
var examples = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, block := range strings.Split("\n"+examplesText, "\n[")[1:] {
		path, text, _ := strings.Cut(block, "]\n")
		m[path] = strings.TrimRight(text, "\n")
	}
	return m
})
