package consensus

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/parleyhq/parley/debate"
)

// Embedder turns texts into vectors, one per text, in order. Package
// consensus/openai provides one over an OpenAI-compatible endpoint.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Judge decides whether a position agrees with a filed one when the
// lexical comparison cannot tell. It answers Agree or Disagree with a
// one-line reason.
type Judge interface {
	Judge(ctx context.Context, topic, filed, position string) (Agreement, string, error)
}

// WithEmbedder matches topics by embedding too (consensus.embeddings):
// a record whose topic's embedding has a cosine of at least
// EmbeddingThreshold with the question's is the same question unless the
// lexical rules see a near-miss. model names the embeddings in the cache,
// so that another model's vectors are never compared with them. When the
// endpoint fails, Check matches by words alone and says so in Warnings.
func WithEmbedder(e Embedder, model string) Option {
	return func(s *Store) { s.embedder, s.embedModel = e, model }
}

// WithJudge asks j to decide the comparisons that come out unclear
// (consensus.judge); its reason is kept in CheckResult.Judge. When the
// endpoint fails, the answer stays unclear and Warnings say why.
func WithJudge(j Judge, model string) Option {
	return func(s *Store) { s.judge, s.judgeModel = j, model }
}

// EmbeddingThreshold is the cosine from which two topics' embeddings are
// taken to ask the same question.
const EmbeddingThreshold = 0.85

// maxEmbedPerCheck bounds how many record topics one check sends to the
// endpoint (those not embedded yet); the rest are embedded by later checks.
const maxEmbedPerCheck = 256

// embedBatch is how many texts go in one request.
const embedBatch = 64

// embedKey names a topic's embedding in the cache.
func (s *Store) embedKey(topic string) string { return s.embedModel + "\n" + topic }

// embedMatch finds, among the active records of layer, the one whose
// topic's embedding is closest to the question's. It returns its key and
// cosine ("" when none reaches EmbeddingThreshold), or an error when the
// endpoint failed. Callers hold s.mu.
func (s *Store) embedMatch(ctx context.Context, l debate.Layer, topic string) (string, float64, error) {
	type head struct {
		key, topic string
		vec        []float32
	}
	rows, err := s.idx.db.QueryContext(ctx, `SELECT f.qkey, f.topic, e.v FROM files f LEFT JOIN emb e ON e.k = ? || f.topic
		WHERE f.head = 1 AND f.layer = ?`, s.embedModel+"\n", string(l))
	if err != nil {
		return "", 0, s.indexErr(err)
	}
	var heads []*head
	for rows.Next() {
		h := &head{}
		var v []byte
		if rows.Scan(&h.key, &h.topic, &v) == nil {
			h.vec = decodeVec(v)
			heads = append(heads, h)
		}
	}
	rows.Close()
	want := []string{topic}
	missing := map[string][]*head{}
	for _, h := range heads {
		if h.vec != nil {
			continue
		}
		if _, ok := missing[h.topic]; !ok && len(want) <= maxEmbedPerCheck {
			want = append(want, h.topic)
		}
		missing[h.topic] = append(missing[h.topic], h)
	}
	var q []float32
	fresh := map[string][]float32{}
	for i := 0; i < len(want); i += embedBatch {
		batch := want[i:min(i+embedBatch, len(want))]
		vecs, err := s.embedder.Embed(ctx, batch)
		if err != nil {
			return "", 0, err
		}
		if len(vecs) != len(batch) {
			return "", 0, fmt.Errorf("the endpoint returned %d embeddings for %d texts", len(vecs), len(batch))
		}
		for j, v := range vecs {
			if i+j == 0 {
				q = v
				continue
			}
			fresh[batch[j]] = v
			for _, h := range missing[batch[j]] {
				h.vec = v
			}
		}
	}
	if len(fresh) > 0 {
		// Kept in the index: the next check, in this process or another,
		// sends only its question.
		tx, err := s.idx.db.BeginTx(ctx, nil)
		if err == nil {
			for t, v := range fresh {
				_, _ = tx.Exec(`INSERT OR REPLACE INTO emb(k, v) VALUES (?, ?)`, s.embedKey(t), encodeVec(v))
			}
			err = tx.Commit()
		}
		if err != nil {
			s.log.Warn("consensus: could not keep embeddings in the index", "path", CacheFile, "err", err)
		}
	}
	best, bestCos := "", 0.0
	for _, h := range heads {
		if h.vec == nil {
			continue
		}
		if c := cosine(q, h.vec); c > bestCos || c == bestCos && h.key < best {
			best, bestCos = h.key, c
		}
	}
	if bestCos < EmbeddingThreshold {
		return "", bestCos, nil
	}
	return best, bestCos, nil
}

func encodeVec(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func decodeVec(b []byte) []float32 {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
