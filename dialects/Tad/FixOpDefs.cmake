# cmake -DINPUT=TadOps.cpp.inc -DOUTPUT=TadOps.fixed.cpp.inc -P FixOpDefs.cmake
#
# mlir-tblgen 22 drops the opening quote of the message in the
# operandSegmentSizes length check when a dialect keeps attributes in the
# attribute dictionary (usePropertiesForAttributes = 0), which tad does.
# Ops with several `Tensor?` operands (AttrSizedOperandSegments) hit it;
# this writes a copy with the quote restored, which TadOps.cpp includes.
file(READ "${INPUT}" text)
string(REPLACE "\"'operandSegmentSizes' attribute for specifying"
               "\"\"'operandSegmentSizes' attribute for specifying" text "${text}")
file(WRITE "${OUTPUT}.tmp" "${text}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
