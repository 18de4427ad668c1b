; strict_calls: calls that might release or observe an object also block pair removal.
; PASSES: all
; STRICT: 1
; STATS: per_bb=1 diamond=0 fanout=1 fanout_raise=0 null=0 normalized=0
; EXPECT barrier_between entry 1 1
; EXPECT harmless_intrinsic entry 0 0
; EXPECT barrier_in_diamond entry 1 0
; EXPECT barrier_in_diamond merge 0 1
; EXPECT barrier_in_fanout entry 1 0
; EXPECT barrier_in_fanout left 0 1
; EXPECT barrier_in_fanout right 0 1
; EXPECT readnone_call entry 0 0
; EXPECT readnone_call left 0 0
; EXPECT readnone_call right 0 0

declare void @NRT_incref(i8*)
declare void @NRT_decref(i8*)
declare void @use(i8*)
declare i64 @pure(i64) readnone
declare void @llvm.assume(i1)

; must stay
define void @barrier_between(i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  call void @use(i8* %p)
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: llvm.assume touches no object
define void @harmless_intrinsic(i8* %p, i1 %c) {
entry:
  call void @NRT_incref(i8* %p)
  call void @llvm.assume(i1 %c)
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay
define void @barrier_in_diamond(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @use(i8* %p)
  br label %merge
right:
  br label %merge
merge:
  call void @NRT_decref(i8* %p)
  ret void
}

; must stay
define void @barrier_in_fanout(i1 %c, i8* %p) {
entry:
  call void @NRT_incref(i8* %p)
  br i1 %c, label %left, label %right
left:
  call void @use(i8* %p)
  call void @NRT_decref(i8* %p)
  ret void
right:
  call void @NRT_decref(i8* %p)
  ret void
}

; must go: a readnone callee cannot release or observe an object
define i64 @readnone_call(i1 %c, i8* %p, i64 %x) {
entry:
  call void @NRT_incref(i8* %p)
  %y = call i64 @pure(i64 %x)
  br i1 %c, label %left, label %right
left:
  call void @NRT_decref(i8* %p)
  ret i64 %y
right:
  call void @NRT_decref(i8* %p)
  ret i64 0
}
