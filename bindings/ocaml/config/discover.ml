(* discover.exe NRT_DECL OCAML_WHERE: finds libnrt with pkg-config (scripts/test-ocaml.sh points PKG_CONFIG_PATH at the install
   staged in build-ocaml/prefix; an installed nrt is found without it) and writes the flags the
   C stubs are compiled and linked with, and the paths the declarations check reads. *)

let pkg_config args =
  let cmd = "pkg-config " ^ args ^ " nrt" in
  let ic = Unix.open_process_in cmd in
  let line = try input_line ic with End_of_file -> "" in
  match Unix.close_process_in ic with
  | Unix.WEXITED 0 -> String.trim line
  | _ ->
    prerr_endline
      ("discover: `" ^ cmd ^ "` failed: build and install nrt first, and point PKG_CONFIG_PATH "
     ^ "at its lib/pkgconfig (scripts/test-ocaml.sh does both)");
    exit 1

(* ctypes' C headers (ctypes_cstubs_internals.h), which the generated stubs include. *)
let ctypes_dir () =
  let ic = Unix.open_process_in "ocamlfind query ctypes 2>/dev/null" in
  let line = try input_line ic with End_of_file -> "" in
  match Unix.close_process_in ic with
  | Unix.WEXITED 0 when line <> "" -> String.trim line
  | _ -> Filename.concat (Filename.dirname Sys.argv.(2)) "ctypes"

let words s = List.filter (( <> ) "") (String.split_on_char ' ' s)

let write name lines =
  let oc = open_out name in
  List.iter (fun l -> output_string oc (l ^ "\n")) lines;
  close_out oc

let sexp l = [ "(" ^ String.concat " " (List.map (Printf.sprintf "%S") l) ^ ")" ]

let () =
  let decl = Sys.argv.(1) in
  let cflags = words (pkg_config "--cflags") @ [ "-I" ^ ctypes_dir () ] in
  let libdir = pkg_config "--variable=libdir" in
  let includedir = pkg_config "--variable=includedir" in
  let libs = words (pkg_config "--libs") @ [ "-Wl,-rpath," ^ libdir ] in
  write "c_flags.sexp" (sexp cflags);
  write "c_flags.lines" cflags;
  write "c_library_flags.sexp" (sexp libs);
  let abs p = if Filename.is_relative p then Filename.concat (Sys.getcwd ()) p else p in
  write "nrt_paths.ml"
    [ "(* Written by config/discover.exe. *)";
      Printf.sprintf "let include_dir = %S" includedir;
      Printf.sprintf "let decl_file = %S" (abs decl) ]
