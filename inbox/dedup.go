package inbox

// SeenSet remembers the most recent ids it was given, up to a fixed
// capacity, forgetting the oldest first. Consumers use it to deduplicate an
// at-least-once stream by message id. It is not safe for concurrent use.
type SeenSet struct {
	ids  map[string]struct{}
	ring []string
	next int
}

// NewSeenSet returns a set that remembers up to capacity ids.
func NewSeenSet(capacity int) *SeenSet {
	if capacity < 1 {
		capacity = 1
	}
	return &SeenSet{ids: make(map[string]struct{}, capacity), ring: make([]string, capacity)}
}

// Add records id and reports whether it was new.
func (s *SeenSet) Add(id string) bool {
	if _, ok := s.ids[id]; ok {
		return false
	}
	if old := s.ring[s.next]; old != "" {
		delete(s.ids, old)
	}
	s.ring[s.next] = id
	s.next = (s.next + 1) % len(s.ring)
	s.ids[id] = struct{}{}
	return true
}

// Has reports whether id is remembered.
func (s *SeenSet) Has(id string) bool {
	_, ok := s.ids[id]
	return ok
}
