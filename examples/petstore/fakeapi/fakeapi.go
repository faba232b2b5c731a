// Package fakeapi is an in-memory implementation of the petstore REST API,
// for the example and its tests.
package fakeapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

type pet struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
}

// API is the REST API under /v1. Requests need the header X-API-Key: Key.
type API struct {
	Key  string
	mu   sync.Mutex
	pets []pet
}

// Handler returns the HTTP handler of the API.
func (a *API) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/pets", a.list)
	mux.HandleFunc("POST /v1/pets", a.add)
	mux.HandleFunc("GET /v1/pets/{id}", a.get)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != a.Key {
			reply(w, http.StatusUnauthorized, map[string]string{"message": "bad API key"})
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (a *API) list(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := []pet{}
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil {
		limit = 100
	}
	for _, p := range a.pets {
		if s := r.URL.Query().Get("status"); (s == "" || s == p.Status) && len(out) < limit {
			out = append(out, p)
		}
	}
	reply(w, http.StatusOK, out)
}

func (a *API) add(w http.ResponseWriter, r *http.Request) {
	var in struct{ Name, Status string }
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil || in.Name == "" {
		reply(w, http.StatusBadRequest, map[string]string{"message": "a pet needs a name"})
		return
	}
	if in.Status == "" {
		in.Status = "available"
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	p := pet{ID: int64(len(a.pets) + 1), Name: in.Name, Status: in.Status}
	a.pets = append(a.pets, p)
	reply(w, http.StatusCreated, p)
}

func (a *API) get(w http.ResponseWriter, r *http.Request) {
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	a.mu.Lock()
	defer a.mu.Unlock()
	if id < 1 || id > int64(len(a.pets)) {
		reply(w, http.StatusNotFound, map[string]string{"message": "no pet " + r.PathValue("id")})
		return
	}
	reply(w, http.StatusOK, a.pets[id-1])
}
