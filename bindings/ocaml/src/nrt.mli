(** OCaml binding of nrt: Python's string operations on managed strings, Arrow-layout
    columns, and Python-syntax UDFs compiled with LLVM and applied on every core.

    Every value of this module ({!Str.t}, {!Column.t}, {!Udf.t}) is a custom block holding one
    reference to an nrt object. The block tells the GC the bytes nrt holds for the object (see
    {!Memory}), and its finalizer drops the reference when the GC collects the value: nothing
    is ever freed by hand. Values may be shared between OCaml threads. *)

(** {1 Errors} *)

type error = {
  code : int;  (** nrt's status code (include/nrt/core.h) *)
  name : string;  (** Python's exception name (ValueError, IndexError, ...) or nrt's name *)
  message : string;  (** Python's message, or nrt's *)
  row : int option;  (** for a UDF applied to columns: the failing row, from 0 *)
}

exception Error of error
(** A failing operation: [Str.index] of a missing substring (ValueError), [Str.get] out of
    range (IndexError), a UDF raising in a row, a malformed Arrow array, ... Allocation failure
    raises [Out_of_memory]. *)

exception Invalid_utf8 of { row : int option; offset : int; message : string }
(** Bytes that are not valid UTF-8, refused before any string is made: [offset] is the byte
    offset of the first bad sequence ([row] its row for a column), [message] Python's
    ("'utf-8' codec can't decode byte 0xff in position 3: invalid start byte"). *)

exception Compile_error of { name : string; line : int; column : int; message : string }
(** A UDF that does not compile: [name] is "SyntaxError", "TypeError" or "Unsupported",
    [line] and [column] locate the error (from 1), [message] is nrt's full diagnostic with the
    source line and a caret. *)

(** {1 Strings} *)

module Str : sig
  type t
  (** An immutable nrt string (valid UTF-8). Operations follow Python's [str] exactly,
      indices count code points and negative ones count from the end. *)

  val of_string : string -> t
  (** A copy of an OCaml string. Raises {!Invalid_utf8} for bytes that are not UTF-8. *)

  val to_string : t -> string

  val length : t -> int
  (** [len(s)]: code points *)

  val byte_length : t -> int
  val equal : t -> t -> bool

  val compare : t -> t -> int
  (** By code point. *)

  val size : t -> int
  (** The bytes this value reported to the GC: nrt's block for the string and the cell
      holding it ([Memory.size_reporting] on when it was made), else 0. *)

  val concat : t -> t -> t

  val repeat : t -> int -> t
  (** [s * n] *)

  val get : t -> int -> t
  (** [s[i]]; Error IndexError outside the string *)

  val slice : ?start:int -> ?stop:int -> ?step:int -> t -> t
  (** [s[start:stop:step]] (missing bounds are Python's None); Error ValueError for step 0. *)

  val upper : t -> t
  val lower : t -> t
  val casefold : t -> t
  val capitalize : t -> t
  val title : t -> t
  val swapcase : t -> t

  val strip : ?chars:t -> t -> t
  (** Without [chars]: Unicode whitespace. *)

  val lstrip : ?chars:t -> t -> t
  val rstrip : ?chars:t -> t -> t

  val split : ?sep:t -> ?maxsplit:int -> t -> t list
  (** Without [sep]: runs of whitespace. Error ValueError for an empty [sep]. *)

  val rsplit : ?sep:t -> ?maxsplit:int -> t -> t list
  val splitlines : ?keepends:bool -> t -> t list

  val partition : t -> t -> t * t * t
  (** [partition s sep] *)

  val rpartition : t -> t -> t * t * t

  val join : t -> t list -> t
  (** [join sep items] is [sep.join(items)] *)

  val replace : ?count:int -> t -> t -> t -> t
  (** [replace s old by]: every occurrence, or the first [count]. *)

  val find : ?start:int -> ?stop:int -> t -> t -> int
  (** [find s sub]: an index or -1 *)

  val rfind : ?start:int -> ?stop:int -> t -> t -> int

  val index : ?start:int -> ?stop:int -> t -> t -> int
  (** Error ValueError when absent *)

  val rindex : ?start:int -> ?stop:int -> t -> t -> int
  val count : ?start:int -> ?stop:int -> t -> t -> int
  val startswith : ?start:int -> ?stop:int -> t -> t -> bool
  val endswith : ?start:int -> ?stop:int -> t -> t -> bool

  val contains : t -> t -> bool
  (** [contains s sub] is [sub in s] *)

  val isalpha : t -> bool
  val isalnum : t -> bool
  val isdecimal : t -> bool
  val isdigit : t -> bool
  val isnumeric : t -> bool
  val isspace : t -> bool
  val isupper : t -> bool
  val islower : t -> bool
  val istitle : t -> bool
  val isascii : t -> bool
  val isidentifier : t -> bool
  val isprintable : t -> bool

  val of_int : int -> t
  (** [str(v)] *)

  val of_float : float -> t
  (** [repr(v)] *)

  val format_int : int -> string -> t
  (** [format_int v spec] is [format(v, spec)]; Error ValueError for a bad spec. *)

  val format_float : float -> string -> t

  val to_int : ?base:int -> t -> int
  (** [int(s, base)]; Error ValueError for a bad literal, OverflowError outside OCaml's int. *)

  val to_float : t -> float
  (** [float(s)] *)

  val ord : t -> int
  (** Error TypeError unless one character *)

  val chr : int -> t
  (** Error ValueError outside range(0x110000) or for a surrogate *)

  val center : ?fill:t -> t -> int -> t
  val ljust : ?fill:t -> t -> int -> t
  val rjust : ?fill:t -> t -> int -> t
  val zfill : t -> int -> t
  val expandtabs : ?tabsize:int -> t -> t
  val removeprefix : t -> t -> t
  val removesuffix : t -> t -> t
end

(** {1 Columns} *)

module Column : sig
  type t
  (** An immutable Arrow-layout column. *)

  type kind = Utf8 | Large_utf8 | Utf8_view | Int64 | Float64 | Bool | List
  (** Arrow's string, large_string, string_view, int64, double, bool and list (of strings,
      int64, double or bool). *)

  type value =
    | S of string
    | I of int
    | F of float
    | B of bool
    | L of string list  (** a list of strings (a null item reads as "") *)
    | Ln of value option list  (** a list of int64, double or bool: I, F or B items, None for a null item *)

  val of_list : ?kind:kind -> string list -> t
  (** A string column ([kind] a string layout, Utf8 by default). Raises {!Invalid_utf8} with
      the row of the first string that is not UTF-8. *)

  val of_array : ?kind:kind -> string array -> t

  val of_options : ?kind:kind -> string option list -> t
  (** None rows are nulls. *)

  val of_ints : int option list -> t
  val of_floats : float option list -> t
  val of_bools : bool option list -> t

  val to_list : t -> string list
  (** The rows of a string column. Invalid_argument for a null row or another kind. *)

  val to_options : t -> string option list
  (** Nulls as None. *)

  val to_values : t -> value option list
  (** Any kind. *)

  val length : t -> int
  val null_count : t -> int
  val kind : t -> kind

  val size : t -> int
  (** The bytes this column reported to the GC: its buffers (shared ones included). *)

  val slice : t -> start:int -> length:int -> t
  (** Zero-copy. Error IndexError outside. *)

  val convert : t -> kind -> t
  (** Between string layouts. *)

  val concat : ?kind:kind -> t list -> t
  val equal : t -> t -> bool

  val export_arrow : t -> array:nativeint -> schema:nativeint -> unit
  (** Fills the caller's ArrowArray and ArrowSchema (C Data Interface structs at those
      addresses) zero-copy. The consumer owns both and calls their release callbacks; the
      array keeps the column's buffers alive until then, from any thread. *)

  val import_arrow : ?trusted:bool -> array:nativeint -> schema:nativeint -> unit -> t
  (** A column over the ArrowArray at [array], described by the ArrowSchema at [schema],
      zero-copy. The array is moved (its release is set to NULL; the producer's release runs
      when the column and everything sharing its buffers are collected); the schema stays the
      caller's. Every row is validated unless [trusted]: a bad array raises {!Error} naming
      the row and the defect, and is then left to the caller. *)
end

(** {1 UDFs} *)

module Udf : sig
  type t
  (** A compiled UDF: Python-syntax source of one [lambda] or [def]s. *)

  type param = Str | Int | Float | Bool

  val compile : ?file:string -> ?func:string -> ?params:param list -> string -> t
  (** Compiles the source for parameters of the given types (one [Str] by default); [func]
      picks the entry among [def]s, [file] names the source in messages. Raises
      {!Compile_error}. *)

  val nparams : t -> int

  val apply :
    ?threads:int -> ?errors:[ `Raise | `Null ] -> ?layout:Column.kind -> t -> Column.t list ->
    Column.t
  (** Applies the UDF to every row (one column per parameter) on nrt's thread pool ([threads]
      0: every core), with the OCaml runtime lock released: other OCaml threads, and the
      finalizers of their garbage, run meanwhile. A row that raises raises {!Error} with
      Python's exception name and message and the row, or gives a null with [`Null]. Strings
      come out in [layout] (Utf8_view by default). *)
end

(** {1 Runtime statistics and the GC} *)

type stats = {
  alloc : int;  (** blocks allocated by nrt since the start *)
  free : int;
  mi_alloc : int;  (** reference-counted objects (MemInfos) made *)
  mi_free : int;
  bytes_alloc : int;
  bytes_free : int;
}

val stats : unit -> stats
(** nrt's totals. Once every value is collected ([Gc.full_major ()]), [alloc = free] and
    [mi_alloc = mi_free]. *)

val cores : unit -> int
(** Cores the process may run on: the default thread count. *)

module Memory : sig
  val set_size_reporting : bool -> unit
  (** On (the default): each new value tells the GC the bytes nrt holds for it, through
      [caml_alloc_custom_mem]. Off: custom blocks without a size, for comparison (the GC then
      sees a few words per value and collects too late). *)

  val size_reporting : unit -> bool

  val set_live_bytes_pacing : bool -> unit
  (** On: every 64 new values, the growth of the bytes nrt holds that no value reported
      (objects made natively, values made with reporting off) speeds up the major GC as
      custom blocks do. Off by default. *)

  val live_bytes_pacing : unit -> bool

  val live_bytes : unit -> int
  (** Bytes nrt holds now (all threads). *)

  val handles : unit -> int
  (** Values of this module not collected yet. *)

  val reported_bytes : unit -> int
  (** The sizes those values reported. *)

end
