package gating

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/parleyhq/parley/vocab"
)

// The shipped corpus is a set of hand-written self-critiques, one file per
// voice (gating/corpus/<voice>.txt). Each example starts with a header line
//
//	=== ID LABEL LAYER [KIND]
//
// (LABEL debate or skip, LAYER spec, plan or verify, KIND optionally
// "hard-negative" or "hard-positive") followed by the self-critique exactly
// as an agent would write it: any text layout, or a JSON object. The body
// is read with ParseBytes, as "parley gate" reads its input.

//go:embed corpus/*.txt
var corpusFiles embed.FS

// Example kinds of the shipped corpus.
const (
	KindHardNegative = "hard-negative" // skip, though it reads doubtful at a glance
	KindHardPositive = "hard-positive" // debate, though it reads settled at a glance
)

// Corpus returns the shipped corpus, every voice, in a fixed order (files
// by name, examples in file order). It is parsed once.
func Corpus() ([]Example, error) {
	ex, err := shippedCorpus()
	return append([]Example(nil), ex...), err
}

var shippedCorpus = sync.OnceValues(func() ([]Example, error) {
	names, err := corpusFiles.ReadDir("corpus")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, n := range names {
		if strings.HasSuffix(n.Name(), ".txt") {
			files = append(files, n.Name())
		}
	}
	sort.Strings(files)
	var all []Example
	for _, name := range files {
		data, err := corpusFiles.ReadFile(path.Join("corpus", name))
		if err != nil {
			return nil, err
		}
		ex, err := ReadBlocks(bytes.NewReader(data), strings.TrimSuffix(name, ".txt"))
		if err != nil {
			return nil, fmt.Errorf("corpus/%s: %w", name, err)
		}
		all = append(all, ex...)
	}
	seen := map[string]string{}
	for _, e := range all {
		if v, dup := seen[e.ID]; dup {
			return nil, fmt.Errorf("%w: id %q in voices %s and %s", ErrCorpus, e.ID, v, e.Voice)
		}
		seen[e.ID] = e.Voice
	}
	return all, nil
})

// ReadBlocks reads examples in the block format of the shipped corpus; every
// example gets the voice given.
func ReadBlocks(r io.Reader, voice string) ([]Example, error) {
	sc := bufio.NewScanner(io.LimitReader(r, MaxCorpusBytes))
	sc.Buffer(make([]byte, 64<<10), MaxInputBytes)
	var (
		out    []Example
		head   []string
		body   strings.Builder
		headAt int
	)
	flush := func() error {
		if head == nil {
			if strings.TrimSpace(body.String()) != "" {
				return fmt.Errorf("%w: text before the first === header", ErrCorpus)
			}
			return nil
		}
		e, err := blockExample(head, body.String(), voice)
		if err != nil {
			return fmt.Errorf("%w: line %d: %w", ErrCorpus, headAt, err)
		}
		out = append(out, e)
		return nil
	}
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "=== ") {
			if err := flush(); err != nil {
				return nil, err
			}
			head, headAt = strings.Fields(line[4:]), n
			body.Reset()
			continue
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

func blockExample(head []string, body, voice string) (Example, error) {
	if len(head) < 3 || len(head) > 4 {
		return Example{}, fmt.Errorf("header needs ID LABEL LAYER [KIND], got %q", strings.Join(head, " "))
	}
	label, err := ParseOutcome(head[1])
	if err != nil {
		return Example{}, err
	}
	layer, err := vocab.ParseLayer(head[2])
	if err != nil {
		return Example{}, err
	}
	kind := ""
	if len(head) == 4 {
		kind = head[3]
		if kind != KindHardNegative && kind != KindHardPositive {
			return Example{}, fmt.Errorf("kind %q (use %s or %s)", kind, KindHardNegative, KindHardPositive)
		}
		if kind == KindHardNegative && label != Skip || kind == KindHardPositive && label != Debate {
			return Example{}, fmt.Errorf("a %s is labelled %s", kind, label)
		}
	}
	sc, err := ParseBytes([]byte(body))
	if err != nil {
		return Example{}, fmt.Errorf("%s: %w", head[0], err)
	}
	sc.Layer = layer
	return Example{ID: head[0], Case: kind, Voice: voice, Label: label, SelfCritique: sc}, nil
}
