(* The runtime support of the generated layer: GC handles and with_gc, the error buffer,
   result cells, and the few raw calls the wrappers need around them. Raw pointers live only
   here and in the generated Nrt_gen; Nrt sees GC handles. *)

open Ctypes
module D = Nrt_functions_desc
module T = D.Types
module C = D.Locked (Nrt_stubs_locked)
module U = D.Unlocked (Nrt_stubs_unlocked)

let keep x = ignore (Sys.opaque_identity x)

(* ------------------------------------------------------------------ errors *)

type error = { code : int; name : string; message : string; row : int option }

exception Error of error

(* An error status as an exception: Out_of_memory for an allocation failure, else Error with
   nrt's name of the status (Python's exception name where there is one). *)
let raise_status code message =
  if code = T.nrt_enomem then raise Out_of_memory;
  raise (Error { code; name = C.nrt_status_name code; message; row = None })

module Err = struct
  (* Calls that keep the runtime lock share one buffer, taken under a mutex for the call and
     the reading of its message: another OCaml thread may run as soon as OCaml allocates.
     Unlocked calls, which may overlap, each get their own. *)
  let mutex = Mutex.create ()
  let shared = addr (make T.nrt_error)

  let message e = coerce (ptr char) string (e |-> T.f_nrt_error_message)

  let lock () =
    Mutex.lock mutex;
    shared

  let unlock () = Mutex.unlock mutex

  let fail code =
    let m = match message shared with m -> m | exception e -> unlock (); raise e in
    unlock ();
    raise_status code m

  let fresh () = addr (make T.nrt_error)
  let fail_fresh e code = raise_status code (message e)
end

(* ------------------------------------------------------------------ GC handles *)

type str = T.nrt_str structure ptr
type column = T.nrt_column structure ptr
type udf = D.nrt_udf structure ptr

external with_gc_block : int -> (_, _) Cstubs_internals.fatptr -> Cstubs_internals.voidp
  = "nrt_ml_with_gc"

external handle_bytes_of : (_, _) Cstubs_internals.fatptr -> int = "nrt_ml_handle_bytes"

let with_gc kind typ (Cstubs_internals.CPointer fat : _ ptr) =
  Cstubs_internals.make_ptr typ (with_gc_block kind fat)

let with_gc_str (raw : T.nrt_str structure ptr) : str = with_gc 0 T.nrt_str raw
let with_gc_column (raw : T.nrt_column structure ptr) : column = with_gc 1 T.nrt_column raw
let with_gc_udf (raw : D.nrt_udf structure ptr) : udf = with_gc 2 D.nrt_udf raw

let handle_bytes (Cstubs_internals.CPointer fat : _ ptr) = handle_bytes_of fat

external set_size_reporting : bool -> unit = "nrt_ml_set_size_reporting"
external size_reporting : unit -> bool = "nrt_ml_size_reporting"
external set_live_bytes_pacing_ratio : bool -> int -> unit = "nrt_ml_set_live_bytes_pacing"
external live_bytes_pacing : unit -> bool = "nrt_ml_live_bytes_pacing"
external handles : unit -> int = "nrt_ml_handles"
external reported_bytes : unit -> int = "nrt_ml_reported_bytes"

let set_live_bytes_pacing on = set_live_bytes_pacing_ratio on (Gc.get ()).custom_major_ratio

let str_ptr (s : str) = s
let column_ptr (c : column) = c
let udf_ptr (u : udf) = u

let str_ptr_opt = function Some s -> s | None -> from_voidp T.nrt_str null

(* ------------------------------------------------------------------ strings *)

let no_error = from_voidp T.nrt_error null
let str_cell_size = Unsigned.Size_t.of_int (sizeof T.nrt_str)

(* A cell for a string result: nrt memory (counted in its statistics), owned by the handle
   with_gc_str makes of it, freed by the handle's finalizer. *)
let str_cell () =
  let p = C.nrt_allocate str_cell_size no_error in
  if is_null p then raise Out_of_memory;
  from_voidp T.nrt_str p

let free_str_cell cell = C.nrt_free (to_voidp cell) str_cell_size

(* The bytes of a handle's string: valid while the handle is reachable (callers keep it). *)
let str_data (s : str) = !@(s |-> T.f_nrt_str_data)
let str_len (s : str) = !@(s |-> T.f_nrt_str_len)

let to_string (s : str) =
  let r = string_from_ptr (str_data s) ~length:(Int64.to_int (str_len s)) in
  keep s;
  r

(* A borrowed view's bytes, copied (the owner of the view is kept by the caller). *)
let string_of_view v =
  string_from_ptr (getf v T.f_nrt_str_data) ~length:(Int64.to_int (getf v T.f_nrt_str_len))

(* The strings of [items] side by side, as borrowed copies of their nrt_str values. *)
let str_array (items : str list) =
  let a = CArray.make T.nrt_str (List.length items) in
  List.iteri (fun i s -> CArray.set a i !@s) items;
  CArray.start a

(* Takes over a list result: one handle per element (each its own reference), then the list's
   reference is dropped. *)
let gc_str_list (l : D.nrt_str_list structure ptr) : str list =
  let n = Int64.to_int (C.nrt_str_list_len l) in
  let get i =
    let cell = str_cell () in
    let err = Err.lock () in
    let rc = C.nrt_str_list_get l (Int64.of_int i) cell err in
    if rc <> 0 then begin free_str_cell cell; Err.fail rc end;
    Err.unlock ();
    with_gc_str cell
  in
  match List.init n get with
  | items -> C.nrt_str_list_release l; items
  | exception e -> C.nrt_str_list_release l; raise e

(* ------------------------------------------------------------------ columns *)

let column_array (cols : column list) = CArray.start (CArray.of_list (ptr T.nrt_column) cols)

(* A handle of its own on a column a function returned borrowed (NULL: None). *)
let borrowed_column (p : T.nrt_column structure ptr) =
  if is_null p then None
  else begin
    C.nrt_col_retain p;
    Some (with_gc_column p)
  end

let column_field (c : column) field =
  let v = !@(c |-> field) in
  keep c;
  v

(* Row i of a column, read from its buffers (the caller checks the type and the bounds). *)
let column_position c i = Int64.to_int (column_field c T.f_nrt_column_offset) + i

let buffer_data c field = getf (column_field c field) T.f_nrt_col_buffer_data

let bit data p = Char.code !@(from_voidp char data +@ (p lsr 3)) land (1 lsl (p land 7)) <> 0

let column_valid c i =
  let v = buffer_data c T.f_nrt_column_validity in
  let r = is_null v || bit v (column_position c i) in
  keep c;
  r

let column_value typ c i =
  let r = !@(from_voidp typ (buffer_data c T.f_nrt_column_values) +@ column_position c i) in
  keep c;
  r

let column_int64 c i = column_value int64_t c i
let column_float64 c i = column_value double c i

let column_bool c i =
  let r = bit (buffer_data c T.f_nrt_column_values) (column_position c i) in
  keep c;
  r

(* The child rows [start, stop) of row i of a list column. *)
let column_list_range c i =
  let o = from_voidp int32_t (buffer_data c T.f_nrt_column_values) +@ column_position c i in
  let r = (Int32.to_int !@o, Int32.to_int !@(o +@ 1)) in
  keep c;
  r

type builder = D.nrt_col_builder structure ptr

(* Runs [fill] on a new builder and makes the column; the builder never outlives the call
   (aborted if [fill] raises). *)
let build_column ~kind ~rows (fill : builder -> unit) : column =
  let out = allocate (ptr D.nrt_col_builder) (from_voidp D.nrt_col_builder null) in
  let err = Err.lock () in
  let rc = C.nrt_col_builder_new kind (Int64.of_int rows) out err in
  if rc <> 0 then Err.fail rc;
  Err.unlock ();
  let b = !@out in
  (match fill b with () -> () | exception e -> C.nrt_col_builder_abort b; raise e);
  let col = allocate (ptr T.nrt_column) (from_voidp T.nrt_column null) in
  let err = Err.lock () in
  let rc = C.nrt_col_builder_finish b col err in
  if rc <> 0 then Err.fail rc;
  Err.unlock ();
  with_gc_column !@col
