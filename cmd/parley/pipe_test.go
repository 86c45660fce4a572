package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// mkfifo makes a named pipe in a temporary directory, or skips.
func mkfifo(t testing.TB) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	return p
}

// An input named on the command line may be a pipe (a shell's <(...), a
// named pipe): it is read once something writes to it.
func TestInputFromANamedPipe(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	fifo := mkfifo(t)
	wrote := make(chan error, 1)
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
		if err == nil {
			_, err = fmt.Fprint(w, "I did not measure the queue depth under load; maybe the drain is too slow.\n")
			w.Close()
		}
		wrote <- err
	}()
	out, errs, code := cli(t, root, "", "--json", "gate", fifo)
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	if code != cmdutil.ExitOK || !strings.Contains(out, `"decision"`) {
		t.Fatalf("gate PIPE: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

// Waiting on a pipe that nobody writes to ends with Ctrl-C (the end of
// the command's context): exit 130, as any wait parley does.
func TestInputPipeNobodyWritesIsInterrupted(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "root")
	mustCLI(t, root, "", "init")
	critique := filepath.Join(t.TempDir(), "critique.md")
	if err := os.WriteFile(critique, []byte("I am not sure.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	agents := []string{"--agent", "attacker=@Rook", "--agent", "defender=@Bishop"}
	for _, args := range [][]string{
		{"gate", "PIPE"},
		{"gate", "--model", "PIPE", critique},
		{"gate", "eval", "--data", "PIPE"},
		{"gate", "label", "PIPE"},
		append([]string{"debate", "run", "--layer", "plan", "--topic", "x", "--context", "PIPE"}, agents...),
		append([]string{"debate", "run", "--layer", "plan", "--topic", "x", "--gate", "PIPE"}, agents...),
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			fifo := mkfifo(t)
			for i, a := range args {
				if a == "PIPE" {
					args[i] = fifo
				}
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan int, 1)
			var errb bytes.Buffer
			go func() {
				err := run(ctx, append([]string{"--root", root}, args...), strings.NewReader(""), &bytes.Buffer{}, &errb)
				done <- cmdutil.ExitCode(err, &errb)
			}()
			cancel() // Ctrl-C, before or while the command waits
			if code := <-done; code != cmdutil.ExitInterrupted || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("exit %d, stderr %q; want exit %d, interrupted", code, errb.String(), cmdutil.ExitInterrupted)
			}
		})
	}
}
