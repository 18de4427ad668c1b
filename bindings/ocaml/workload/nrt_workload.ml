(* Strings and columns made in a loop and never freed by hand: only the GC, told or not told
   their sizes, lets go of them. Run in a fresh process so that its peak RSS is the loop's. *)

type result = {
  strings : int;
  columns : int;
  sizes : bool;
  pacing : bool;
  seconds : float;
  start_kb : int; (* VmRSS before the loop *)
  peak_kb : int; (* VmHWM after it *)
  stats : Nrt.stats; (* after Gc.full_major () *)
  handles : int; (* values not collected by then *)
}

(* A field of /proc/self/status in kB. *)
let status_kb key =
  let ic = open_in "/proc/self/status" in
  let rec go () =
    match input_line ic with
    | line when String.length line > String.length key && String.sub line 0 (String.length key) = key ->
      Scanf.sscanf (String.sub line (String.length key) (String.length line - String.length key))
        " %d kB" (fun k -> k)
    | _ -> go ()
    | exception End_of_file -> 0
  in
  Fun.protect ~finally:(fun () -> close_in ic) go

(* 1000 rows of 60 to 80 bytes in four scripts (all valid UTF-8: the loop validates them). *)
let rows =
  let words = [| "straße"; "Ωμέγα"; "данные"; "naïve"; "string"; "column" |] in
  Array.init 1000 (fun i ->
      Printf.sprintf "row %04d %s %s and %s, some text to be sixty bytes or more" i
        words.(i mod 6) words.((i / 6) mod 6) words.((i / 36) mod 6))

(* Each iteration makes one string: from OCaml (even) or by upper() in nrt (odd); a few stay
   reachable (the last 8). Every strings / columns iterations a column of 2,000 rows
   (concatenated in nrt, about 150 KB of buffers) replaces one of the last 4. *)
let loop ~strings ~columns =
  let recent = Array.make 8 (Nrt.Str.of_string "") in
  let base = Nrt.Column.of_array rows in
  let kept = Array.make 4 base in
  let every = max 1 (strings / max 1 columns) in
  let made = ref 0 in
  for i = 0 to strings - 1 do
    let s =
      if i land 1 = 0 then Nrt.Str.of_string rows.(i mod 1000)
      else Nrt.Str.upper recent.((i - 1) land 7)
    in
    recent.(i land 7) <- s;
    if i mod every = 0 && !made < columns then begin
      kept.(!made land 3) <- Nrt.Column.concat [ base; base ];
      incr made
    end
  done;
  !made

let run ~strings ~columns ~sizes ~pacing =
  Nrt.Memory.set_size_reporting sizes;
  Nrt.Memory.set_live_bytes_pacing pacing;
  let start_kb = status_kb "VmRSS:" in
  let t0 = Unix.gettimeofday () in
  let made = loop ~strings ~columns in
  let seconds = Unix.gettimeofday () -. t0 in
  let peak_kb = status_kb "VmHWM:" in
  Gc.full_major ();
  { strings; columns = made; sizes; pacing; seconds; start_kb; peak_kb; stats = Nrt.stats ();
    handles = Nrt.Memory.handles () }

(* One line a parent process reads back. *)
let to_line r =
  Printf.sprintf "%d %d %b %b %f %d %d %d %d %d %d %d" r.strings r.columns r.sizes r.pacing
    r.seconds r.start_kb r.peak_kb r.stats.alloc r.stats.free r.stats.mi_alloc r.stats.mi_free
    r.handles

let of_line line =
  Scanf.sscanf line "%d %d %B %B %f %d %d %d %d %d %d %d"
    (fun strings columns sizes pacing seconds start_kb peak_kb alloc free mi_alloc mi_free handles ->
      { strings; columns; sizes; pacing; seconds; start_kb; peak_kb; handles;
        stats = { alloc; free; mi_alloc; mi_free; bytes_alloc = 0; bytes_free = 0 } })

(* [exe --workload STRINGS COLUMNS SIZES PACING] runs [run] and prints [to_line]; call
   [main_hook] first thing in such an executable. *)
let main_hook () =
  match Sys.argv with
  | [| _; "--workload"; s; c; sizes; pacing |] ->
    let r = run ~strings:(int_of_string s) ~columns:(int_of_string c)
        ~sizes:(bool_of_string sizes) ~pacing:(bool_of_string pacing) in
    print_endline (to_line r);
    exit 0
  | _ -> ()

(* Runs the loop in a child process of this executable. *)
let in_child ~strings ~columns ~sizes ~pacing =
  let args = [| Sys.executable_name; "--workload"; string_of_int strings;
                string_of_int columns; string_of_bool sizes; string_of_bool pacing |] in
  let ic = Unix.open_process_args_in Sys.executable_name args in
  let line = input_line ic in
  match Unix.close_process_in ic with
  | Unix.WEXITED 0 -> of_line line
  | _ -> failwith ("the workload process failed: " ^ line)

(* Sizes from the environment: NRT_OCAML_STRINGS, NRT_OCAML_COLUMNS. *)
let env_int name default =
  match Sys.getenv_opt name with
  | Some v -> (match int_of_string_opt v with Some n when n > 0 -> n | _ -> default)
  | None -> default
