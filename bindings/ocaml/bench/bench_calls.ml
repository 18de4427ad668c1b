(* The price of generation: a call through the generated layer (ctypes' stubs, Nrt_gen, the
   error buffer, a result cell and with_gc) against one hand-written stub doing the same work
   (handwritten.c). Nanoseconds per call, best of 5 rounds. *)

external hand_length : Nrt.Str.t -> int = "nrt_bench_length" [@@noalloc]

type hand_str

external hand_of_string : string -> hand_str = "nrt_bench_of_string"

let rounds = 5
let calls = 1_000_000

let ns f =
  let best = ref infinity in
  for _ = 1 to rounds do
    let t0 = Unix.gettimeofday () in
    f ();
    best := min !best (Unix.gettimeofday () -. t0)
  done;
  !best *. 1e9 /. float calls

let () =
  let text = "a string of forty-odd bytes, straße and ﬁ" in
  let s = Nrt.Str.of_string text in
  let sink = Array.make 64 s in
  let hsink = Array.make 64 (hand_of_string text) in
  let rows =
    [ ("Str.length", (fun () -> for _ = 1 to calls do ignore (Nrt.Str.length s) done),
       fun () -> for _ = 1 to calls do ignore (hand_length s) done);
      ("Str.of_string (a value via with_gc)",
       (fun () -> for i = 1 to calls do sink.(i land 63) <- Nrt.Str.of_string text done),
       fun () -> for i = 1 to calls do hsink.(i land 63) <- hand_of_string text done) ]
  in
  Printf.printf "ns per call, %d calls, best of %d\n" calls rounds;
  Printf.printf "%-38s %10s %13s %7s\n" "call" "generated" "hand-written" "ratio";
  List.iter
    (fun (name, gen, hand) ->
      let g = ns gen and h = ns hand in
      Printf.printf "%-38s %10.0f %13.0f %6.1fx\n%!" name g h (g /. h))
    rows;
  let upper () = for i = 1 to calls do sink.(i land 63) <- Nrt.Str.upper s done in
  let on = ns upper in
  Nrt.Memory.set_size_reporting false;
  let off = ns upper in
  Nrt.Memory.set_size_reporting true;
  Nrt.Memory.set_live_bytes_pacing true;
  let paced = ns upper in
  Nrt.Memory.set_live_bytes_pacing false;
  Printf.printf "%-38s %10.0f\n%-38s %10.0f\n%-38s %10.0f\n" "Str.upper, sizes reported" on
    "Str.upper, no sizes" off "Str.upper, sizes + live-bytes pacing" paced
