package termsafe

import (
	"io"
	"unicode/utf8"
)

// Writer passes what is written through to a terminal with every unsafe
// rune but newline and tab replaced by U+FFFD, and so are bytes that are
// not UTF-8 (a lone 0x9b is a CSI to some terminals). A rune split across
// two writes is held until it is whole. Whatever parley prints to a
// terminal goes through one, so that no output path can let text it did
// not write drive the terminal; parley's own control sequences (a
// progress line's "\r\x1b[K") are written to the terminal directly.
//
// A Writer is not safe for concurrent use; Flush writes a rune left
// incomplete at the end.
type Writer struct {
	w       io.Writer
	pending []byte
	buf     []byte
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write cleans p and writes it; it reports len(p) when the underlying write
// succeeds.
func (t *Writer) Write(p []byte) (int, error) {
	in := p
	if len(t.pending) > 0 {
		in = append(t.pending, p...)
		t.pending = nil
	}
	// Hold back a rune the next write completes.
	cut := len(in)
	for i := len(in) - 1; i >= 0 && i >= len(in)-utf8.UTFMax; i-- {
		if utf8.RuneStart(in[i]) {
			if !utf8.FullRune(in[i:]) {
				cut = i
			}
			break
		}
	}
	t.pending = append(t.pending[:0], in[cut:]...)
	out := t.buf[:0]
	for i := 0; i < cut; {
		c := in[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f || c == '\n' || c == '\t' {
				out = append(out, c)
			} else {
				out = append(out, "\uFFFD"...)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:cut])
		if r == utf8.RuneError && n <= 1 || Unsafe(r) {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, in[i:i+n]...)
		}
		i += n
	}
	t.buf = out
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a rune left incomplete by the last write as U+FFFD.
func (t *Writer) Flush() error {
	if len(t.pending) == 0 {
		return nil
	}
	t.pending = nil
	_, err := io.WriteString(t.w, "\uFFFD")
	return err
}
