package escalation

import (
	"bytes"
	"fmt"
	"io"
)

// Line is one complete line of a telemetry file.
type Line struct {
	// N is the line's number in its file, from 1.
	N int
	// Data is the line without its newline (and without a trailing
	// carriage return). It is valid until the next call that feeds the
	// Scanner.
	Data []byte
	// TooLong reports a line longer than MaxLineBytes; Data is empty.
	TooLong bool
}

// Scanner splits telemetry into lines as it is written: complete lines are
// emitted with their numbers; a partial last line is held until its newline
// arrives; a line longer than MaxLineBytes is emitted as TooLong without
// being kept in memory. A Scanner is used by one goroutine.
type Scanner struct {
	partial  []byte
	n        int
	skipping bool // inside a line already reported as too long
}

// Feed splits chunk, the bytes that follow what was fed before, and emits
// each line it completes. An error from emit stops it and is returned; the
// lines after it are not emitted (feed them again after a Reset).
func (s *Scanner) Feed(chunk []byte, emit func(Line) error) error {
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '\n')
		if i < 0 {
			s.hold(chunk)
			return nil
		}
		piece := chunk[:i]
		chunk = chunk[i+1:]
		s.n++
		var l Line
		if s.skipping || len(s.partial)+len(piece) > MaxLineBytes {
			s.skipping = false
			l = Line{N: s.n, TooLong: true}
		} else {
			data := piece
			if len(s.partial) > 0 {
				data = append(s.partial, piece...)
			}
			l = Line{N: s.n, Data: bytes.TrimSuffix(data, []byte("\r"))}
		}
		s.partial = s.partial[:0]
		if err := emit(l); err != nil {
			return err
		}
	}
	return nil
}

func (s *Scanner) hold(b []byte) {
	if s.skipping {
		return
	}
	if len(s.partial)+len(b) > MaxLineBytes {
		// Report it once, when its newline comes; keep nothing of it.
		s.partial = s.partial[:0]
		s.skipping = true
		return
	}
	s.partial = append(s.partial, b...)
}

// Pending reports whether a partial last line is held (one begun too long
// included).
func (s *Scanner) Pending() bool { return len(s.partial) > 0 || s.skipping }

// Lines returns how many lines were completed (or begun too long).
func (s *Scanner) Lines() int { return s.n }

// Reset forgets the held partial line and restarts the numbering, as for a
// new file.
func (s *Scanner) Reset() { *s = Scanner{partial: s.partial[:0]} }

// Flush emits the held partial line as the file's last line (a file whose
// last line has no newline), if it ends in a complete record; a partial
// line that does not is left held and reported as incomplete.
func (s *Scanner) Flush(emit func(Line) error) (incomplete bool, err error) {
	if s.skipping {
		return true, nil
	}
	if len(s.partial) == 0 {
		return false, nil
	}
	if !wholeRecord(bytes.TrimSuffix(s.partial, []byte("\r"))) {
		return true, nil
	}
	s.n++
	l := Line{N: s.n, Data: bytes.TrimSuffix(s.partial, []byte("\r"))}
	s.partial = s.partial[:0]
	return false, emit(l)
}

// ReadAll feeds everything r holds to s, then Flushes the last line.
func (s *Scanner) ReadAll(r io.Reader, emit func(Line) error) (incomplete bool, err error) {
	buf := make([]byte, 64<<10)
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if err := s.Feed(buf[:n], emit); err != nil {
				return false, err
			}
		}
		if rerr == io.EOF {
			return s.Flush(emit)
		}
		if rerr != nil {
			return false, fmt.Errorf("read the telemetry: %w", rerr)
		}
	}
}
