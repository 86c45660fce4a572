package transcripts

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"

	json "github.com/goccy/go-json"

	"github.com/parleyhq/parley/debate"
)

// Report is the result of verifying a transcript.
type Report struct {
	ID string `json:"debate_id"`
	// Intact is true when every line verified and agrees with the seal.
	Intact bool `json:"intact"`
	// Events is how many lines verified before the first bad one.
	Events int `json:"events"`
	// Head is the hash of the last line that verified ("" for none).
	Head string `json:"head"`
	// BadLine is the first bad line (1-based), 0 when intact.
	BadLine int    `json:"bad_line,omitempty"`
	Problem string `json:"problem,omitempty"`
	// Sealed says whether verdict.json was there to check the end against.
	Sealed bool `json:"sealed"`
}

// Seal is what verdict.json says about the end of the transcript.
type Seal struct {
	Events int
	Head   string
}

// Verify recomputes the hash chain of debate id's transcript read from r:
// every line's own hash, its seq (1, 2, …) and its prev (the previous
// line's hash, the genesis for line 1). With a seal (from verdict.json) it
// also checks that the transcript ends where the seal says, so that
// deleting trailing lines is detected; without one, lines removed from the
// end of a running debate cannot be told from lines never written. The
// report names the first bad line. An error means r could not be read.
func Verify(r io.Reader, id string, seal *Seal) (Report, error) {
	rep := Report{ID: id, Sealed: seal != nil}
	prev := []byte(Genesis(id))
	var head [hexLen]byte
	br := bufio.NewReaderSize(r, readSize(r))
	var long []byte
	n := 0
	bad := func(line int, format string, args ...any) (Report, error) {
		rep.BadLine, rep.Problem = line, fmt.Sprintf(format, args...)
		if rep.Events > 0 {
			rep.Head = string(head[:])
		}
		return rep, nil
	}
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) && len(long) <= MaxLineBytes {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 && err == io.EOF {
			break
		}
		if err != nil && err != io.EOF {
			if len(line) > MaxLineBytes {
				return bad(n+1, "longer than %d bytes", MaxLineBytes)
			}
			return rep, err
		}
		n++
		if err == io.EOF || line[len(line)-1] != '\n' {
			return bad(n, "incomplete: no newline at the end (a write cut short by a crash; debate resume sets it aside)")
		}
		line = line[:len(line)-1]
		c, problem := checkLine(line)
		switch {
		case problem != "":
			return bad(n, "%s", problem)
		case c.seq != n:
			return bad(n, "has seq %d: a line was removed, inserted or moved here", c.seq)
		case !bytes.Equal(c.prev, prev) && n == 1:
			if other := chainOf(line, c.prev); other != "" && other != id {
				return bad(n, "does not start this debate's chain: it opens the chain of another debate, %s (its transcript was put in this one's place)", other)
			}
			return bad(n, "does not start this debate's chain: its prev is not the genesis of %s (a transcript of another debate, or line 1 was rewritten)", id)
		case !bytes.Equal(c.prev, prev):
			return bad(n, "does not follow line %d: its prev is not that line's hash (line %d or this line was rewritten)", n-1, n-1)
		}
		copy(head[:], c.hash)
		prev = head[:]
		rep.Events = n
		if seal != nil && n == seal.Events && seal.Head != string(head[:]) {
			return bad(n, "its hash differs from the head recorded in verdict.json")
		}
	}
	if seal != nil {
		switch {
		case n < seal.Events:
			return bad(n+1, "missing: verdict.json records %d events, the transcript ends after %d", seal.Events, n)
		case n > seal.Events:
			return bad(seal.Events+1, "written after the transcript was sealed at %d events", seal.Events)
		}
	}
	rep.Intact = true
	if n > 0 {
		rep.Head = string(head[:])
	}
	return rep, nil
}

// readSize is the read buffer Verify uses for r: as large as what r holds
// when it says (a bytes.Reader, a file), so that verifying a short
// transcript costs as much as the transcript, never more than
// maxReadBuffer; a longer line is gathered past the buffer as needed.
func readSize(r io.Reader) int {
	n := defaultReadBuffer
	switch x := r.(type) {
	case interface{ Len() int }:
		n = x.Len() + 1
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := x.Stat(); err == nil && fi.Mode().IsRegular() {
			n = int(min(fi.Size(), maxReadBuffer)) + 1
		}
	}
	return min(max(n, 16), maxReadBuffer)
}

const (
	defaultReadBuffer = 64 << 10
	maxReadBuffer     = 1 << 20
)

// chainOf returns the id of the debate whose chain line, a first line
// whose own hash verified, opens: the id its open event records, when
// prev is that debate's genesis; "" otherwise.
func chainOf(line, prev []byte) string {
	var r rawLine
	if json.Unmarshal(line, &r) != nil || r.Kind != debate.EventOpen {
		return ""
	}
	var open struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(r.Data, &open) != nil || open.ID == "" || Genesis(open.ID) != string(prev) {
		return ""
	}
	return open.ID
}
