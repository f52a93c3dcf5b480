#ifndef THREEDS2_CLIBXML2_SHIM_H
#define THREEDS2_CLIBXML2_SHIM_H
// Debian's libxml2 is built with ICU, and its headers then include the system's <unicode/*.h>, which clash with
// the ICU copy inside Foundation. Nothing here uses libxml2's ICU converter fields, so hide them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#endif
