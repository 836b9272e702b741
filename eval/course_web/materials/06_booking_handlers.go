// Package booking holds the HTTP handlers for rooms and bookings of the Roomie API.
//
// WEB-3120 Lab 3-5 reference code (roomie-api/internal/booking/handlers.go), 2026.
// Routes (registered in cmd/roomie-api/main.go with Go 1.22+ method patterns):
//
//	GET    /api/v1/rooms              public, cacheable (ETag)
//	GET    /api/v1/bookings/mine      the caller's bookings, paged
//	POST   /api/v1/bookings           create a booking        (CSRF token required)
//	DELETE /api/v1/bookings/{id}      cancel own booking      (CSRF token required)
package booking

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Booking rules. Changing any of these needs a line in REPORT.md saying why.
const (
	MinBookingMinutes  = 15
	MaxBookingMinutes  = 180 // three hours; longer requests get 422
	SlotMinutes        = 15  // bookings start and end on a quarter hour
	MaxDaysAhead       = 28  // no bookings more than four weeks in advance
	MaxActivePerUser   = 5   // future bookings one user may hold at a time
	MaxMemoRunes       = 500 // counted in runes, not bytes: Japanese text is 3 bytes a rune
	DefaultPageSize    = 20
	MaxPageSize        = 100
	queryTimeout       = 3 * time.Second
	roomsCacheControl  = "public, max-age=30, stale-while-revalidate=60"
	privateNoStore     = "private, no-store"
	pgExclusionViolate = "23P01" // PostgreSQL: exclusion constraint violated (overlap)
)

// Opening hours of the rooms, in Japan time.
var (
	jst       = time.FixedZone("JST", 9*60*60)
	openFrom  = 8*time.Hour + 30*time.Minute // 08:30
	openUntil = 21 * time.Hour               // 21:00
)

// sortColumns is the allow-list for ?sort=. Column names cannot be bound as $n
// parameters, so the value chosen here is the only thing ever put into the SQL text.
var sortColumns = map[string]string{
	"start_at":   "b.start_at",
	"room_id":    "b.room_id, b.start_at",
	"created_at": "b.created_at DESC",
}

type Handler struct {
	DB *pgxpool.Pool
}

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError sends {"code": ..., "message": ...}; the message is shown to users as is.
func writeError(w http.ResponseWriter, status int, code, message string) {
	writeJSON(w, status, errorBody{Code: code, Message: message})
}

// RequireCSRF rejects a state-changing request whose X-CSRF-Token header does not
// match the token stored with the session. The comparison takes constant time.
func RequireCSRF(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			next.ServeHTTP(w, r)
			return
		}
		sess := SessionFrom(r.Context())
		got := []byte(r.Header.Get("X-CSRF-Token"))
		if sess == nil || subtle.ConstantTimeCompare(got, []byte(sess.CSRFToken)) != 1 {
			writeError(w, http.StatusForbidden, "csrf_mismatch", "ページを再読み込みしてからもう一度操作してください。")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ListRooms answers with all rooms. The list changes a few times a day, so it is
// cacheable for 30 s and revalidated with a weak ETag built from the table version.
func (h *Handler) ListRooms(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), queryTimeout)
	defer cancel()
	var version int64
	if err := h.DB.QueryRow(ctx, `SELECT version FROM table_versions WHERE name = 'rooms'`).Scan(&version); err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	etag := fmt.Sprintf(`W/"rooms-%d"`, version)
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", roomsCacheControl)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	rows, err := h.DB.Query(ctx, `SELECT id, name, building, capacity, photo_url FROM rooms ORDER BY id`)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	rooms, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Room])
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	writeJSON(w, http.StatusOK, rooms)
}

// ListMine answers with the caller's bookings, newest first by default.
func (h *Handler) ListMine(w http.ResponseWriter, r *http.Request) {
	sess := SessionFrom(r.Context())
	if sess == nil {
		writeError(w, http.StatusUnauthorized, "login_required", "ログインしてください。")
		return
	}
	q := r.URL.Query()
	order, ok := sortColumns[q.Get("sort")]
	if q.Get("sort") == "" {
		order, ok = sortColumns["start_at"], true
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_sort", "並べ替えの指定が正しくありません。")
		return
	}
	limit := DefaultPageSize
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			writeError(w, http.StatusBadRequest, "bad_limit", "件数の指定が正しくありません。")
			return
		}
		limit = min(n, MaxPageSize) // silently capped, not an error
	}
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)

	ctx, cancel := context.WithTimeout(r.Context(), queryTimeout)
	defer cancel()
	sql := `SELECT b.id, b.room_id, b.start_at, b.end_at, b.memo
	          FROM bookings b
	         WHERE b.user_id = $1 AND b.cancelled_at IS NULL
	         ORDER BY ` + order + ` LIMIT $2 OFFSET $3`
	rows, err := h.DB.Query(ctx, sql, sess.UserID, limit, (page-1)*limit)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	list, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Booking])
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	w.Header().Set("Cache-Control", privateNoStore) // personal data: never in a shared cache
	writeJSON(w, http.StatusOK, list)
}

type createRequest struct {
	RoomID  int64     `json:"roomId"`
	StartAt time.Time `json:"startAt"`
	EndAt   time.Time `json:"endAt"`
	Memo    string    `json:"memo"`
}

// validate returns a Japanese message for the first broken rule, or "".
func (c createRequest) validate(now time.Time) string {
	start, end := c.StartAt.In(jst), c.EndAt.In(jst)
	minutes := int(end.Sub(start).Minutes())
	day := time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, jst)
	switch {
	case minutes < MinBookingMinutes:
		return "利用時間は15分以上にしてください。"
	case minutes > MaxBookingMinutes:
		return "利用時間は180分までです。"
	case start.Minute()%SlotMinutes != 0 || end.Minute()%SlotMinutes != 0:
		return "開始・終了は15分単位で指定してください。"
	case start.Before(day.Add(openFrom)) || end.After(day.Add(openUntil)):
		return "利用できるのは8:30から21:00までです。"
	case start.Before(now):
		return "過去の時間は予約できません。"
	case start.After(now.AddDate(0, 0, MaxDaysAhead)):
		return "予約できるのは28日先までです。"
	case utf8.RuneCountInString(c.Memo) > MaxMemoRunes:
		return "メモは500文字までです。"
	}
	return ""
}

// Create books a room. Overlaps are caught by the database (EXCLUDE constraint in
// migration 0004), not by a SELECT first: two requests at once would both pass a check.
func (h *Handler) Create(w http.ResponseWriter, r *http.Request) {
	sess := SessionFrom(r.Context())
	if sess == nil {
		writeError(w, http.StatusUnauthorized, "login_required", "ログインしてください。")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 16<<10) // 16 KiB is plenty for one booking
	var req createRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad_json", "送信内容を読み取れませんでした。")
		return
	}
	if msg := req.validate(time.Now()); msg != "" {
		writeError(w, http.StatusUnprocessableEntity, "invalid_booking", msg)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), queryTimeout)
	defer cancel()

	var active int
	if err := h.DB.QueryRow(ctx,
		`SELECT count(*) FROM bookings WHERE user_id = $1 AND start_at > now() AND cancelled_at IS NULL`,
		sess.UserID).Scan(&active); err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	if active >= MaxActivePerUser {
		writeError(w, http.StatusUnprocessableEntity, "too_many_bookings", "同時に持てる予約は5件までです。")
		return
	}

	var id int64
	err := h.DB.QueryRow(ctx,
		`INSERT INTO bookings (room_id, user_id, start_at, end_at, memo)
		 VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		req.RoomID, sess.UserID, req.StartAt, req.EndAt, req.Memo).Scan(&id)
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr) && pgErr.Code == pgExclusionViolate:
		writeError(w, http.StatusConflict, "booking_overlap", "その時間帯はすでに予約されています。")
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/api/v1/bookings/%d", id))
	writeJSON(w, http.StatusCreated, map[string]int64{"id": id})
}

// Cancel marks the caller's own booking as cancelled (soft delete). Someone else's
// booking gives 403, not 404: Roomie does not hide that a booking id exists.
func (h *Handler) Cancel(w http.ResponseWriter, r *http.Request) {
	sess := SessionFrom(r.Context())
	if sess == nil {
		writeError(w, http.StatusUnauthorized, "login_required", "ログインしてください。")
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_id", "予約番号が正しくありません。")
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), queryTimeout)
	defer cancel()
	var owner int64
	err = h.DB.QueryRow(ctx, `SELECT user_id FROM bookings WHERE id = $1 AND cancelled_at IS NULL`, id).Scan(&owner)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		writeError(w, http.StatusNotFound, "not_found", "予約が見つかりません。")
		return
	case err != nil:
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	case owner != sess.UserID && !sess.IsAdmin:
		writeError(w, http.StatusForbidden, "not_owner", "他の人の予約は取り消せません。")
		return
	}
	if _, err := h.DB.Exec(ctx, `UPDATE bookings SET cancelled_at = now() WHERE id = $1`, id); err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "サーバでエラーが起きました。")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
