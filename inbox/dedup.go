package inbox

// SeenSet remembers the most recent ids it was given, up to a fixed
// capacity, forgetting the oldest first. Consumers use it to deduplicate an
// at-least-once stream by message id. Memory grows with the ids added, not
// with the capacity. It is not safe for concurrent use.
type SeenSet struct {
	capacity int
	ids      map[string]struct{}
	ring     []string // grows to capacity, then is overwritten oldest first
	next     int
}

// NewSeenSet returns a set that remembers up to capacity ids.
func NewSeenSet(capacity int) *SeenSet {
	return &SeenSet{capacity: max(capacity, 1), ids: make(map[string]struct{})}
}

// Add records id and reports whether it was new.
func (s *SeenSet) Add(id string) bool {
	if _, ok := s.ids[id]; ok {
		return false
	}
	if len(s.ring) < s.capacity {
		s.ring = append(s.ring, id)
	} else {
		delete(s.ids, s.ring[s.next])
		s.ring[s.next] = id
		s.next = (s.next + 1) % s.capacity
	}
	s.ids[id] = struct{}{}
	return true
}

// Has reports whether id is remembered.
func (s *SeenSet) Has(id string) bool {
	_, ok := s.ids[id]
	return ok
}
