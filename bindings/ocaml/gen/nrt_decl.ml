(* The declarations file (nrt.decl) and nrt's public headers, read into one small model of C
   declarations: the generator writes bindings from the first, and test/check_decls.ml checks
   it against the second. Both are compared as token lists, so spacing never matters. *)

(* ------------------------------------------------------------------ tokens *)

let is_word_char c =
  match c with 'A' .. 'Z' | 'a' .. 'z' | '0' .. '9' | '_' -> true | _ -> false

(* Words ([A-Za-z0-9_]+), "..." and single punctuation characters; blanks separate. *)
let tokenize s =
  let n = String.length s in
  let rec go i acc =
    if i >= n then List.rev acc
    else if is_word_char s.[i] then begin
      let j = ref i in
      while !j < n && is_word_char s.[!j] do incr j done;
      go !j (String.sub s i (!j - i) :: acc)
    end
    else if i + 2 < n && String.sub s i 3 = "..." then go (i + 3) ("..." :: acc)
    else match s.[i] with
      | ' ' | '\t' | '\n' | '\r' -> go (i + 1) acc
      | c -> go (i + 1) (String.make 1 c :: acc)
  in
  go 0 []

(* Tokens back to C as people write it: "const char *s", "f(int a, int b);". *)
let pretty toks =
  let b = Buffer.create 80 in
  let prev = ref "(" in
  List.iter
    (fun t ->
      let glue_before = List.mem t [ ")"; ","; ";"; "["; "]" ] || (t = "(" && !prev <> ",")
                        || List.mem !prev [ "("; "["; "*" ] in
      if Buffer.length b > 0 && not glue_before then Buffer.add_char b ' ';
      Buffer.add_string b t;
      prev := t)
    toks;
  Buffer.contents b

let is_ident t = t <> "" && is_word_char t.[0] && not ('0' <= t.[0] && t.[0] <= '9')

(* Splits a token list at [sep] tokens outside brackets. *)
let split_top sep toks =
  let rec go depth cur acc = function
    | [] -> List.rev (List.rev cur :: acc)
    | t :: rest when t = sep && depth = 0 -> go depth [] (List.rev cur :: acc) rest
    | t :: rest ->
      let depth =
        match t with "(" | "{" | "[" -> depth + 1 | ")" | "}" | "]" -> depth - 1 | _ -> depth
      in
      go depth (t :: cur) acc rest
  in
  List.filter (fun l -> l <> []) (go 0 [] [] toks)

(* ------------------------------------------------------------------ C types *)

type ctype =
  | Void | Bool | Char | Int | Uint | Int32 | Uint32 | Int64 | Uint64 | Size | Double
  | Named of string (* a struct, an enum or an opaque typedef, by its tag *)
  | Ptr of ctype

let rec show_ctype = function
  | Void -> "void" | Bool -> "bool" | Char -> "char" | Int -> "int" | Uint -> "unsigned"
  | Int32 -> "int32_t" | Uint32 -> "uint32_t" | Int64 -> "int64_t" | Uint64 -> "uint64_t"
  | Size -> "size_t" | Double -> "double" | Named n -> n | Ptr t -> show_ctype t ^ " *"

exception Bad of string

let fail fmt = Printf.ksprintf (fun m -> raise (Bad m)) fmt

(* A type from its tokens: qualifiers and the struct/enum keywords dropped, one Ptr per '*'. *)
let ctype_of_tokens toks =
  let words = List.filter (fun t -> t <> "const" && t <> "struct" && t <> "enum") toks in
  let stars = List.length (List.filter (( = ) "*") words) in
  let base =
    match List.filter (( <> ) "*") words with
    | [ "void" ] -> Void | [ "bool" ] -> Bool | [ "char" ] -> Char | [ "int" ] -> Int
    | [ "unsigned" ] | [ "unsigned"; "int" ] -> Uint | [ "int32_t" ] -> Int32
    | [ "uint32_t" ] -> Uint32 | [ "int64_t" ] -> Int64 | [ "uint64_t" ] -> Uint64
    | [ "size_t" ] -> Size | [ "double" ] -> Double
    | [ n ] when is_ident n -> Named n
    | _ -> fail "unsupported C type: %s" (String.concat " " toks)
  in
  let rec wrap t k = if k = 0 then t else wrap (Ptr t) (k - 1) in
  wrap base stars

(* "T name" or "T name[N]" (a field: the array is bound by its first element). *)
let param_of_tokens toks =
  let toks = match split_top "[" toks with [ before; _ ] -> before | _ -> toks in
  match List.rev toks with
  | name :: rev_type when is_ident name && rev_type <> [] ->
    (ctype_of_tokens (List.rev rev_type), name)
  | _ -> fail "cannot read the declaration %S" (String.concat " " toks)

(* ------------------------------------------------------------------ declarations *)

type func = {
  name : string;
  ret : ctype;
  params : (ctype * string) list;
  tokens : string list; (* the whole prototype, for the header check *)
}

type item =
  | Struct of { sname : string; fields : (ctype * string) list; field_tokens : string list list }
  | Enum of { ename : string; items : string list }
  | Define of { dname : string; dtokens : string list }
  | Func of func

(* Annotations from the lines before a prototype (see nrt.decl). *)
type notes = {
  out : string list;
  inputs : string list;
  nullable : string list;
  ocaml_string : string list;
  borrowed : string list;
  arrays : (string * string) list;
  unlocked : bool;
  raw : bool;
}

let no_notes =
  { out = []; inputs = []; nullable = []; ocaml_string = []; borrowed = []; arrays = []; unlocked = false;
    raw = false }

type entry = { header : string; item : item; notes : notes; line : int }

let parse_func toks =
  match split_top "(" toks with
  | before :: _ ->
    let params_toks =
      let rec drop = function [] -> [] | "(" :: rest -> rest | _ :: rest -> drop rest in
      match List.rev (drop toks) with
      | ";" :: ")" :: rev -> List.rev rev
      | ")" :: rev -> List.rev rev
      | _ -> fail "a prototype must end with ');'"
    in
    let ret, name = param_of_tokens before in
    let params =
      match params_toks with
      | [ "void" ] | [] -> []
      | _ -> List.map param_of_tokens (split_top "," params_toks)
    in
    { name; ret; params; tokens = toks }
  | [] -> fail "empty declaration"

(* The members between the braces of "struct S { ... };" or "enum E { ... };". *)
let braced toks =
  let rec after_open = function [] -> [] | "{" :: rest -> rest | _ :: rest -> after_open rest in
  let rec upto depth acc = function
    | [] -> fail "missing '}'"
    | "}" :: _ when depth = 0 -> List.rev acc
    | t :: rest ->
      let depth = match t with "{" -> depth + 1 | "}" -> depth - 1 | _ -> depth in
      upto depth (t :: acc) rest
  in
  upto 0 [] (after_open toks)

let parse_struct toks =
  match toks with
  | "struct" :: name :: "{" :: _ ->
    let field_tokens = split_top ";" (braced toks) in
    Struct { sname = name; fields = List.map param_of_tokens field_tokens; field_tokens }
  | _ -> fail "expected 'struct NAME { fields };'"

let parse_enum toks =
  match toks with
  | "enum" :: name :: "{" :: _ ->
    let items = List.map (function t :: _ -> t | [] -> "") (split_top "," (braced toks)) in
    Enum { ename = name; items }
  | _ -> fail "expected 'enum NAME { A, B };'"

let words s = List.filter (( <> ) "") (String.split_on_char ' ' (String.trim s))

(* Reads nrt.decl. Errors name the line. *)
let parse_decl_file text =
  let lines = String.split_on_char '\n' text in
  let header = ref "" and notes = ref no_notes and out = ref [] in
  List.iteri
    (fun i raw ->
      let line = String.trim raw in
      let lnum = i + 1 in
      try
        if line = "" || (String.length line >= 2 && String.sub line 0 2 = "//") then ()
        else if line.[0] = '@' then begin
          match words line with
          | [ "@header"; h ] -> header := h
          | "@out" :: ps -> notes := { !notes with out = ps }
          | "@in" :: ps -> notes := { !notes with inputs = ps }
          | "@nullable" :: ps -> notes := { !notes with nullable = ps }
          | "@ocaml_string" :: ps -> notes := { !notes with ocaml_string = ps }
          | "@borrowed" :: ps -> notes := { !notes with borrowed = ps }
          | [ "@array"; p; n ] -> notes := { !notes with arrays = (p, n) :: !notes.arrays }
          | [ "@unlocked" ] -> notes := { !notes with unlocked = true }
          | [ "@raw" ] -> notes := { !notes with raw = true }
          | _ -> fail "unknown annotation %S" line
        end
        else begin
          if !header = "" then fail "a declaration before any @header";
          let toks = tokenize line in
          let item =
            match toks with
            | "struct" :: _ :: "{" :: _ -> parse_struct toks
            | "enum" :: _ :: "{" :: _ -> parse_enum toks
            | "#" :: "define" :: name :: rest -> Define { dname = name; dtokens = name :: rest }
            | _ -> Func (parse_func toks)
          in
          (match item with
           | Func _ -> ()
           | _ when !notes <> no_notes -> fail "annotations apply to prototypes only"
           | _ -> ());
          out := { header = !header; item; notes = !notes; line = lnum } :: !out;
          notes := no_notes
        end
      with Bad m -> fail "nrt.decl:%d: %s" lnum m)
    lines;
  if !notes <> no_notes then fail "nrt.decl: annotations at the end of the file";
  List.rev !out

(* ------------------------------------------------------------------ headers *)

(* What a public header declares, for the check: prototypes by name (NRT_API and NRT_PRINTF
   dropped), struct members, enumerators and #define lines. *)
type header = {
  protos : (string * string list) list;
  structs : (string * string list list) list;
  enums : (string * string list) list;
  defines : (string * string list) list;
}

let strip_comments s =
  let b = Buffer.create (String.length s) in
  let n = String.length s in
  let rec go i =
    if i >= n then ()
    else if i + 1 < n && s.[i] = '/' && s.[i + 1] = '*' then begin
      let rec close j = if j + 1 >= n then n else if s.[j] = '*' && s.[j + 1] = '/' then j + 2
        else close (j + 1) in
      Buffer.add_char b ' ';
      go (close (i + 2))
    end
    else if i + 1 < n && s.[i] = '/' && s.[i + 1] = '/' then begin
      let j = match String.index_from_opt s i '\n' with Some j -> j | None -> n in
      go j
    end
    else (Buffer.add_char b s.[i]; go (i + 1))
  in
  go 0;
  Buffer.contents b

(* Drops "NRT_PRINTF ( ... )" from a token list. *)
let rec drop_printf = function
  | "NRT_PRINTF" :: "(" :: rest ->
    let rec skip = function [] -> [] | ")" :: r -> r | _ :: r -> skip r in
    drop_printf (skip rest)
  | t :: rest -> t :: drop_printf rest
  | [] -> []

let parse_header text =
  let text = strip_comments text in
  let defines =
    List.filter_map
      (fun l ->
        match tokenize l with
        | "#" :: "define" :: name :: rest -> Some (name, name :: rest)
        | _ -> None)
      (String.split_on_char '\n' text)
  in
  (* Preprocessor lines out of the way: "#define NRT_API ..." is no declaration. *)
  let code =
    String.split_on_char '\n' text
    |> List.filter (fun l -> not (String.length (String.trim l) > 0 && (String.trim l).[0] = '#'))
    |> String.concat "\n"
  in
  let toks = tokenize code in
  let rec scan protos structs enums = function
    | [] -> (List.rev protos, List.rev structs, List.rev enums)
    | "NRT_API" :: rest ->
      let rec upto acc = function
        | [] -> (List.rev acc, [])
        | ";" :: r -> (List.rev (";" :: acc), r)
        | t :: r -> upto (t :: acc) r
      in
      let proto, rest = upto [] rest in
      let proto = drop_printf proto in
      let name = try (parse_func proto).name with Bad _ -> "" in
      scan ((name, proto) :: protos) structs enums rest
    | "struct" :: name :: "{" :: _ as here ->
      let members = split_top ";" (braced here) in
      scan protos ((name, members) :: structs) enums (List.tl here)
    | "enum" :: name :: "{" :: _ as here ->
      let items = List.map (function t :: _ -> t | [] -> "") (split_top "," (braced here)) in
      scan protos structs ((name, items) :: enums) (List.tl here)
    | _ :: rest -> scan protos structs enums rest
  in
  let protos, structs, enums = scan [] [] [] toks in
  { protos; structs; enums; defines }

(* Why [e] does not match [h], or None when it does. *)
let check_entry h e =
  let show = String.concat " " in
  match e.item with
  | Func f -> (
    match List.assoc_opt f.name h.protos with
    | None -> Some (Printf.sprintf "%s is not declared in %s" f.name e.header)
    | Some toks when toks = f.tokens -> None
    | Some toks ->
      Some (Printf.sprintf "%s differs from %s:\n  nrt.decl: %s\n  header:   %s" f.name e.header
              (show f.tokens) (show toks)))
  | Struct { sname; field_tokens; _ } -> (
    match List.assoc_opt sname h.structs with
    | None -> Some (Printf.sprintf "struct %s is not defined in %s" sname e.header)
    | Some members ->
      List.find_map
        (fun f ->
          if List.mem f members then None
          else Some (Printf.sprintf "struct %s in %s has no member '%s'" sname e.header (show f)))
        field_tokens)
  | Enum { ename; items } -> (
    match List.assoc_opt ename h.enums with
    | None -> Some (Printf.sprintf "enum %s is not defined in %s" ename e.header)
    | Some hitems ->
      List.find_map
        (fun i ->
          if List.mem i hitems then None
          else Some (Printf.sprintf "enum %s in %s has no enumerator %s" ename e.header i))
        items)
  | Define { dname; dtokens } -> (
    match List.assoc_opt dname h.defines with
    | Some toks when toks = dtokens -> None
    | Some toks ->
      Some (Printf.sprintf "#define %s differs from %s: %s" dname e.header (show toks))
    | None -> Some (Printf.sprintf "%s is not #defined in %s" dname e.header))
