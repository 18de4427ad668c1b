; Per-block pairs, normalise and null constants.
; PASSES: all
; STATS: per_bb=7 diamond=0 fanout=0 fanout_raise=0 null=2 normalized=1
; EXPECT pair entry 0 0
; EXPECT inert_between entry 0 0
; EXPECT call_between entry 0 0
; EXPECT unrelated_between entry 1 2
; EXPECT decref_run entry 0 1
; EXPECT decref_before_incref entry 0 0
; EXPECT normalise_blocked entry 1 1
; EXPECT null_ops entry 0 0
; EXPECT nrt_names entry 0 0
; EXPECT phi_same_value left 0 0
; EXPECT phi_same_value right 0 0
; EXPECT phi_same_value merge 0 0
; EXPECT phi_different_values entry 1 0
; EXPECT phi_different_values merge 0 1

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)
declare void @nrt_mi_incref(i8*)
declare void @nrt_mi_decref_local(i8*)
declare void @use(i8*)

; must go: incref then decref of the same value
define void @pair(i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: loads and stores are not barriers
define i8 @inert_between(i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  %q = getelementptr i8, i8* %p, i64 1
  store i8 7, i8* %q
  %v = load i8, i8* %q
  call void @NRT_decref(i8* %p)
  ret i8 %v
}

; must go: a callee borrows its arguments and never releases its caller's references
define void @call_between(i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  call void @use(i8* %p)
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay: an unrelated decref (possibly the same object) then a load before the decref
define i8 @unrelated_between(i8* %p, i8* %q) {
entry:
  call void @NRT_incref(i8* %p)
  call void @NRT_decref(i8* %q)
  %v = load i8, i8* %p
  call void @NRT_decref(i8* %p)
  ret i8 %v
}

; must go: decrefs that follow each other happen at once
define void @decref_run(i8* %p, i8* %q) {
entry:
  call void @NRT_incref(i8* %p)
  call void @NRT_decref(i8* %q)
  call void @NRT_decref(i8* %p)
  ret void
}

; must go after normalise moves the decref after the incref
define void @decref_before_incref(i8* %p) {
entry:
  call void @NRT_decref(i8* %p)
  call void @NRT_incref(i8* %p)
  ret void
}

; must stay: normalise never moves a decref across a call
define void @normalise_blocked(i8* %p) {
entry:
  call void @NRT_decref(i8* %p)
  call void @use(i8* %p)
  call void @NRT_incref(i8* %p)
  ret void
}

; must go: refcount operations on null do nothing
define void @null_ops() {
entry:
  call void @NRT_incref(i8* null)
  call void @NRT_decref(i8* null)
  ret void
}

; must go: nrt's own names are recognised by default
define void @nrt_names(i8* %p) {
entry:
  call void @nrt_mi_incref(i8* %p)
  call void @nrt_mi_decref_local(i8* %p)
  ret void
}

; must go: operations on the phi value itself are related
define void @phi_same_value(i1 %c, i8* %a, i8* %b) {
entry:
  br i1 %c, label %left, label %right
left:
  br label %merge
right:
  br label %merge
merge:
  %m = phi i8* [ %a, %left ], [ %b, %right ]
  call void @NRT_incref(i8* %m)
  call void @NRT_decref(i8* %m)
  ret void
}

; must stay: a pair related only through a phi is not related (different SSA values)
define void @phi_different_values(i8* %a) {
entry:
  call void @NRT_incref(i8* %a)
  br label %merge
merge:
  %m = phi i8* [ %a, %entry ]
  call void @NRT_decref(i8* %m)
  ret void
}
