package app

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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

// isText reports whether s is text an agent or a person can read: valid
// UTF-8 (encoding would turn every invalid byte into U+FFFD, so what
// arrived would not be what was sent) without a NUL byte, which valid
// UTF-8 allows but no text holds: a UTF-16 file without its byte order
// mark, a file of zeros, most binaries. The one judgement of a message's
// text and a debate's context.
func isText(s string) bool {
	return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0
}
