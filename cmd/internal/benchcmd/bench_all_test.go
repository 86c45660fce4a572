package benchcmd

import (
	"context"
	"errors"
	"io"
	"testing"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/cmd/internal/cmdutil"
)

// "parley bench" runs every benchmark with the command's context (Ctrl-C
// stops whichever runs), in order, and stops at the first failure.
func TestBenchAllPassesItsContext(t *testing.T) {
	a := &cmdutil.Factory{Stdout: io.Discard, Stderr: io.Discard}
	cmd := NewCmd(a)
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "the command's")
	var ran []string
	for _, s := range cmd.Commands() {
		s.RunE = func(s *cobra.Command, _ []string) error {
			if s.Context() == nil || s.Context().Value(key{}) != "the command's" {
				t.Errorf("bench %s ran with context %v", s.Name(), s.Context())
			}
			ran = append(ran, s.Name())
			if s.Name() == "messenger" {
				return errors.New("no disk")
			}
			return nil
		}
	}
	cmd.SetArgs(nil)
	if err := cmd.ExecuteContext(ctx); err == nil || err.Error() != "no disk" {
		t.Fatalf("bench = %v, want the messenger's error", err)
	}
	if want := []string{"gate", "consensus", "messenger"}; len(ran) != len(want) || ran[0] != want[0] || ran[1] != want[1] || ran[2] != want[2] {
		t.Errorf("ran %v, want %v", ran, want)
	}
}
