(* The OCaml API, on the generated wrappers (Nrt_gen): GC handles in, GC handles out. *)

open Ctypes
module R = Nrt_raw
module G = Nrt_gen
module T = Nrt_raw.T

type error = R.error = { code : int; name : string; message : string; row : int option }

exception Error = R.Error
exception Invalid_utf8 of { row : int option; offset : int; message : string }
exception Compile_error of { name : string; line : int; column : int; message : string }

let i64 = Int64.of_int
let int = Int64.to_int

(* Python's None for an optional index. *)
let opt_index = function None -> T.nrt_str_none | Some i -> i64 i

let error code name message = Error { code; name; message; row = None }

module Str = struct
  type t = R.str

  let of_string s =
    try G.str_new_utf8 s None with
    | Error { code; message; _ } when code = T.nrt_eilseq ->
      (* Asked for only now, so that valid strings pay nothing for it. *)
      let off = allocate int64_t (-1L) in
      (match G.str_new_utf8 s (Some off) with _ -> () | exception Error _ -> ());
      raise (Invalid_utf8 { row = None; offset = int !@off; message })

  let to_string = R.to_string
  let length s = int (G.str_len s)
  let byte_length s = int (R.str_len s)
  let equal = G.str_eq
  let compare = G.str_compare
  let size (s : t) = R.handle_bytes (R.str_ptr s)
  let concat = G.str_concat
  let repeat s n = G.str_repeat s (i64 n)
  let get s i = G.str_getitem s (i64 i)

  let slice ?start ?stop ?(step = 1) s =
    G.str_slice s (opt_index start) (opt_index stop) (i64 step)

  let upper = G.str_upper
  let lower = G.str_lower
  let casefold = G.str_casefold
  let capitalize = G.str_capitalize
  let title = G.str_title
  let swapcase = G.str_swapcase
  let strip ?chars s = G.str_strip s chars
  let lstrip ?chars s = G.str_lstrip s chars
  let rstrip ?chars s = G.str_rstrip s chars
  let split ?sep ?(maxsplit = -1) s = G.str_split s sep (i64 maxsplit)
  let rsplit ?sep ?(maxsplit = -1) s = G.str_rsplit s sep (i64 maxsplit)
  let splitlines ?(keepends = false) s = G.str_splitlines s keepends

  let triple name = function
    | [ a; b; c ] -> (a, b, c)
    | l -> failwith (Printf.sprintf "Nrt.Str.%s: %d parts" name (List.length l))

  let partition s sep = triple "partition" (G.str_partition s sep)
  let rpartition s sep = triple "rpartition" (G.str_rpartition s sep)
  let join = G.str_join_array
  let replace ?(count = -1) s old by = G.str_replace s old by (i64 count)
  let range start stop = (i64 (Option.value start ~default:0), opt_index stop)

  let find ?start ?stop s sub =
    let a, b = range start stop in
    int (G.str_find s sub a b)

  let rfind ?start ?stop s sub =
    let a, b = range start stop in
    int (G.str_rfind s sub a b)

  let index ?start ?stop s sub =
    let a, b = range start stop in
    int (G.str_index s sub a b)

  let rindex ?start ?stop s sub =
    let a, b = range start stop in
    int (G.str_rindex s sub a b)

  let count ?start ?stop s sub =
    let a, b = range start stop in
    int (G.str_count s sub a b)

  let startswith ?start ?stop s prefix =
    let a, b = range start stop in
    G.str_startswith s prefix a b

  let endswith ?start ?stop s suffix =
    let a, b = range start stop in
    G.str_endswith s suffix a b

  let contains = G.str_contains
  let isalpha = G.str_isalpha
  let isalnum = G.str_isalnum
  let isdecimal = G.str_isdecimal
  let isdigit = G.str_isdigit
  let isnumeric = G.str_isnumeric
  let isspace = G.str_isspace
  let isupper = G.str_isupper
  let islower = G.str_islower
  let istitle = G.str_istitle
  let isascii = G.str_isascii
  let isidentifier = G.str_isidentifier
  let isprintable = G.str_isprintable
  let of_int v = G.str_from_int64 (i64 v)
  let of_float = G.str_from_double
  let format_int v spec = G.str_format_int (i64 v) spec
  let format_float = G.str_format_float

  let to_int ?(base = 10) s =
    let v = G.str_to_int64 s base in
    if Int64.compare v (i64 min_int) < 0 || Int64.compare v (i64 max_int) > 0 then
      raise (error T.nrt_eoverflow "OverflowError"
               (Printf.sprintf "int %Ld does not fit OCaml's int (63 bits)" v));
    int v

  let to_float = G.str_to_double
  let ord s = int (G.str_ord s)
  let chr cp = G.str_chr (i64 cp)
  let center ?fill s width = G.str_center s (i64 width) fill
  let ljust ?fill s width = G.str_ljust s (i64 width) fill
  let rjust ?fill s width = G.str_rjust s (i64 width) fill
  let zfill s width = G.str_zfill s (i64 width)
  let expandtabs ?(tabsize = 8) s = G.str_expandtabs s (i64 tabsize)
  let removeprefix = G.str_removeprefix
  let removesuffix = G.str_removesuffix
end

module Column = struct
  type t = R.column
  type kind = Utf8 | Large_utf8 | Utf8_view | Int64 | Float64 | Bool | List
  type value =
    | S of string
    | I of int
    | F of float
    | B of bool
    | L of string list
    | Ln of value option list

  let kinds =
    [ (Utf8, T.nrt_col_utf8); (Large_utf8, T.nrt_col_large_utf8);
      (Utf8_view, T.nrt_col_utf8_view); (Int64, T.nrt_col_int64);
      (Float64, T.nrt_col_float64); (Bool, T.nrt_col_bool); (List, T.nrt_col_list) ]

  let code k = List.assoc k kinds

  let kind_of_code c =
    match List.find_opt (fun (_, v) -> v = c) kinds with
    | Some (k, _) -> k
    | None -> failwith (Printf.sprintf "Nrt.Column: unknown column type %d" c)

  let string_layout fn = function
    | (Utf8 | Large_utf8 | Utf8_view) as k -> code k
    | _ -> invalid_arg (fn ^ ": kind must be Utf8, Large_utf8 or Utf8_view")

  let validate row s =
    try G.utf8_validate s None with
    | Error { code; message; _ } when code = T.nrt_eilseq ->
      let off = allocate size_t Unsigned.Size_t.zero in
      (match G.utf8_validate s (Some off) with () -> () | exception Error _ -> ());
      raise (Invalid_utf8 { row = Some row; offset = Unsigned.Size_t.to_int !@off; message })

  (* Builder appends keep a sticky status that finishing the column reports. *)
  let strings fn kind n iter =
    R.build_column ~kind:(string_layout fn kind) ~rows:n (fun b ->
        iter (fun i -> function
          | None -> ignore (G.col_builder_append_null b)
          | Some s -> validate i s; ignore (G.col_builder_append_view b s)))

  let of_options ?(kind = Utf8) l =
    strings "Nrt.Column.of_options" kind (List.length l) (fun f -> List.iteri f l)

  let of_list ?(kind = Utf8) l =
    strings "Nrt.Column.of_list" kind (List.length l) (fun f ->
        List.iteri (fun i s -> f i (Some s)) l)

  let of_array ?(kind = Utf8) a =
    strings "Nrt.Column.of_array" kind (Array.length a) (fun f ->
        Array.iteri (fun i s -> f i (Some s)) a)

  let numbers kind append l =
    R.build_column ~kind:(code kind) ~rows:(List.length l) (fun b ->
        List.iter
          (function None -> ignore (G.col_builder_append_null b) | Some v -> ignore (append b v))
          l)

  let of_ints l = numbers Int64 (fun b v -> G.col_builder_append_int64 b (i64 v)) l
  let of_floats l = numbers Float64 G.col_builder_append_float64 l
  let of_bools l = numbers Bool G.col_builder_append_bool l
  let length c = int (R.column_field c T.f_nrt_column_length)
  let null_count c = int (R.column_field c T.f_nrt_column_null_count)
  let kind c = kind_of_code (R.column_field c T.f_nrt_column_type)
  let size (c : t) = R.handle_bytes (R.column_ptr c)

  let string_row c i =
    let s, is_null = G.col_get_str c (i64 i) in
    if is_null then None else Some s

  let rec value c k i =
    if not (R.column_valid c i) then None
    else
      match k with
      | Utf8 | Large_utf8 | Utf8_view -> Option.map (fun s -> S s) (string_row c i)
      | Int64 -> Some (I (int (R.column_int64 c i)))
      | Float64 -> Some (F (R.column_float64 c i))
      | Bool -> Some (B (R.column_bool c i))
      | List -> (
        match G.col_list_child c with
        | None -> failwith "Nrt.Column: a list column without items"
        | Some child -> (
          let a, b = R.column_list_range c i in
          match kind child with
          | Utf8 | Large_utf8 | Utf8_view ->
            Some (L (List.init (b - a) (fun j -> Option.value (string_row child (a + j)) ~default:"")))
          | ck -> Some (Ln (List.init (b - a) (fun j -> value child ck (a + j))))))

  (* Arrays first: lists of millions of rows would overflow List.map's stack. *)
  let to_values c =
    let k = kind c in
    Array.to_list (Array.init (length c) (value c k))

  let to_options c =
    match kind c with
    | Utf8 | Large_utf8 | Utf8_view -> Array.to_list (Array.init (length c) (string_row c))
    | _ -> invalid_arg "Nrt.Column.to_options: not a string column"

  let to_list c =
    match kind c with
    | Utf8 | Large_utf8 | Utf8_view ->
      Array.to_list
        (Array.init (length c) (fun i ->
             match string_row c i with
             | Some s -> s
             | None -> invalid_arg (Printf.sprintf "Nrt.Column.to_list: row %d is null" i)))
    | _ -> invalid_arg "Nrt.Column.to_list: not a string column"

  let slice c ~start ~length = G.col_slice c (i64 start) (i64 length)
  let convert c k = G.col_convert c (code k)

  let concat ?kind:target cols =
    let k = match (target, cols) with Some k, _ -> k | None, c :: _ -> kind c | None, [] -> Utf8 in
    G.col_concat cols (code k)

  let equal = G.col_equal
  let arrow_ptr typ address = from_voidp typ (ptr_of_raw_address address)

  let export_arrow c ~array ~schema =
    G.col_export_arrow c (arrow_ptr T.arrowarray array) (arrow_ptr T.arrowschema schema)

  let import_arrow ?(trusted = false) ~array ~schema () =
    let flags = if trusted then Unsigned.UInt.of_int64 T.nrt_col_import_trusted else Unsigned.UInt.zero in
    G.col_import_arrow_schema (arrow_ptr T.arrowarray array) (arrow_ptr T.arrowschema schema) flags
end

module Udf = struct
  type t = R.udf
  type param = Str | Int | Float | Bool

  let param_code = function
    | Str -> T.nrt_value_str | Int -> T.nrt_value_int64 | Float -> T.nrt_value_float64
    | Bool -> T.nrt_value_bool

  (* "FILE:LINE:COLUMN: message" on the first line of nrt's diagnostic. *)
  let location file message =
    let first = List.hd (String.split_on_char '\n' message) in
    let prefix = file ^ ":" in
    let n = String.length prefix in
    if String.length first > n && String.sub first 0 n = prefix then
      match String.split_on_char ':' (String.sub first n (String.length first - n)) with
      | l :: c :: _ -> (
        match (int_of_string_opt l, int_of_string_opt c) with
        | Some l, Some c -> (l, c)
        | _ -> (0, 0))
      | _ -> (0, 0)
    else (0, 0)

  let compile ?(file = "<udf>") ?func ?(params = [ Str ]) src =
    let opts = make T.nrt_udf_options in
    let file_c = CArray.of_string file in
    let func_c = Option.map CArray.of_string func in
    let kinds = CArray.of_list Ctypes.int (List.map param_code params) in
    setf opts T.f_nrt_udf_options_file (CArray.start file_c);
    setf opts T.f_nrt_udf_options_func
      (match func_c with Some f -> CArray.start f | None -> from_voidp char null);
    setf opts T.f_nrt_udf_options_param_kinds (CArray.start kinds);
    setf opts T.f_nrt_udf_options_nparams (List.length params);
    let udf =
      try G.udf_compile src (Some (addr opts)) with
      | Error { code; message; _ }
        when code = T.nrt_eparse || code = T.nrt_etype || code = T.nrt_eunsupported ->
        let line, column = location file message in
        let name = if code = T.nrt_eparse then "SyntaxError" else R.C.nrt_status_name code in
        raise (Compile_error { name; line; column; message })
    in
    R.keep (file_c, func_c, kinds, opts);
    udf

  let nparams = G.udf_nparams

  (* "row N: Name: message" (N from 1) as the row's exception. *)
  let row_error e =
    match String.index_opt e.message ':' with
    | Some i when String.length e.message > 4 && String.sub e.message 0 4 = "row " -> (
      match int_of_string_opt (String.sub e.message 4 (i - 4)) with
      | Some n -> (
        let rest = String.sub e.message (i + 2) (String.length e.message - i - 2) in
        match String.index_opt rest ':' with
        | Some j when j + 2 <= String.length rest ->
          let name = String.sub rest 0 j in
          let message = String.sub rest (j + 2) (String.length rest - j - 2) in
          { e with name; message; row = Some (n - 1) }
        | _ -> { e with row = Some (n - 1) })
      | None -> e)
    | _ -> e

  let apply ?(threads = 0) ?(errors = `Raise) ?(layout = Column.Utf8_view) udf cols =
    let opts = make T.nrt_udf_apply_options in
    setf opts T.f_nrt_udf_apply_options_threads threads;
    setf opts T.f_nrt_udf_apply_options_errors_as_null (errors = `Null);
    setf opts T.f_nrt_udf_apply_options_string_type (Column.string_layout "Nrt.Udf.apply" layout);
    match G.udf_apply udf cols (addr opts) None with
    | col -> R.keep opts; col
    | exception Error e -> raise (Error (row_error e))
end

type stats = {
  alloc : int;
  free : int;
  mi_alloc : int;
  mi_free : int;
  bytes_alloc : int;
  bytes_free : int;
}

let stats () =
  let s = G.stats_get () in
  let get f = Unsigned.UInt64.to_int (getf s f) in
  { alloc = get T.f_nrt_stats_alloc; free = get T.f_nrt_stats_free;
    mi_alloc = get T.f_nrt_stats_mi_alloc; mi_free = get T.f_nrt_stats_mi_free;
    bytes_alloc = get T.f_nrt_stats_bytes_alloc; bytes_free = get T.f_nrt_stats_bytes_free }

let cores = G.exec_cores

module Memory = struct
  let set_size_reporting = R.set_size_reporting
  let size_reporting = R.size_reporting
  let set_live_bytes_pacing = R.set_live_bytes_pacing
  let live_bytes_pacing = R.live_bytes_pacing
  let live_bytes () = Unsigned.UInt64.to_int (G.stats_live_bytes ())
  let handles = R.handles
  let reported_bytes = R.reported_bytes
end
