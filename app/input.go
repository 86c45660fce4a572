package app

import (
	"context"
	"fmt"
	"io"

	"github.com/parleyhq/parley/internal/sendcheck"
	"github.com/parleyhq/parley/internal/userfile"
)

// readInput reads a file the caller named as input (a --context, a
// --model), at most max bytes: userfile.Open judges what the name may be
// (a directory is refused, a pipe is read until the end of ctx).
func readInput(ctx context.Context, path string, max int) ([]byte, error) {
	f, err := userfile.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, max)
	}
	return b, nil
}

// isText is sendcheck.IsText: the one judgement of a message's text and
// a debate's context.
func isText(s string) bool { return sendcheck.IsText(s) }
