(* The runtime support of the generated layer (Nrt_gen). GC handles are private: the only way
   to make one from a raw pointer is a with_gc function. *)

open Ctypes
module D = Nrt_functions_desc
module T = D.Types
module C : module type of D.Locked (Nrt_stubs_locked)
module U : module type of D.Unlocked (Nrt_stubs_unlocked)

val keep : 'a -> unit
(** Keeps a value reachable up to this point (Sys.opaque_identity). *)

type error = { code : int; name : string; message : string; row : int option }

exception Error of error

val raise_status : int -> string -> 'a
(** Out_of_memory for NRT_ENOMEM, else Error with nrt's name for the status. *)

(** The error buffer of the calls. *)
module Err : sig
  val lock : unit -> T.nrt_error structure ptr
  (** The shared buffer, for a call that keeps the runtime lock; [unlock] or [fail] next. *)

  val unlock : unit -> unit

  val fail : int -> 'a
  (** Raises the status with the shared buffer's message, unlocked. *)

  val fresh : unit -> T.nrt_error structure ptr
  (** A buffer of its own (unlocked calls). *)

  val fail_fresh : T.nrt_error structure ptr -> int -> 'a
end

(** {1 GC handles} *)

type str = private T.nrt_str structure ptr
type column = private T.nrt_column structure ptr
type udf = private D.nrt_udf structure ptr

val with_gc_str : T.nrt_str structure ptr -> str
(** Takes over a string cell from [str_cell], with the reference it holds. *)

val with_gc_column : T.nrt_column structure ptr -> column
(** Takes over one reference to the column. *)

val with_gc_udf : D.nrt_udf structure ptr -> udf
(** Takes over the UDF. *)

val str_ptr : str -> T.nrt_str structure ptr
val str_ptr_opt : str option -> T.nrt_str structure ptr
val column_ptr : column -> T.nrt_column structure ptr
val udf_ptr : udf -> D.nrt_udf structure ptr

val handle_bytes : _ ptr -> int
(** The bytes a handle reported to the GC; -1 for a pointer that is not a handle. *)

val set_size_reporting : bool -> unit
val size_reporting : unit -> bool
val set_live_bytes_pacing : bool -> unit
val live_bytes_pacing : unit -> bool
val handles : unit -> int
val reported_bytes : unit -> int

(** {1 Strings} *)

val str_cell : unit -> T.nrt_str structure ptr
(** A result cell (nrt memory), for [with_gc_str] or [free_str_cell]. *)

val free_str_cell : T.nrt_str structure ptr -> unit
val str_data : str -> char ptr
val str_len : str -> int64
val to_string : str -> string
val string_of_view : T.nrt_str structure -> string
val str_array : str list -> T.nrt_str structure ptr

val gc_str_list : D.nrt_str_list structure ptr -> str list
(** Takes over a list: a handle per element, then the list is released. *)

(** {1 Columns} *)

val column_array : column list -> T.nrt_column structure ptr ptr
val borrowed_column : T.nrt_column structure ptr -> column option
val column_field : column -> ('a, T.nrt_column structure) field -> 'a
val column_valid : column -> int -> bool
val column_int64 : column -> int -> int64
val column_float64 : column -> int -> float
val column_bool : column -> int -> bool
val column_list_range : column -> int -> int * int

type builder = D.nrt_col_builder structure ptr

val build_column : kind:int -> rows:int -> (builder -> unit) -> column
(** Makes a column with a builder that never outlives the call. *)
