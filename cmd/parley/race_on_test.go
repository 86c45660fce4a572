//go:build race

package main

// raceBuild: the race detector multiplies memory (5–10x), which bounds on
// a process's resident memory allow for.
const raceBuild = true
