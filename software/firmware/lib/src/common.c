/* LiteDigest C library: error strings. */
#include "litedigest/ld_common.h"

const char *ld_strerror(int err)
{
    switch (err) {
    case LD_OK:          return "ok";
    case LD_ERR_ARG:     return "bad argument";
    case LD_ERR_STATE:   return "wrong call order";
    case LD_ERR_TIMEOUT: return "peripheral timeout";
    case LD_ERR_HW:      return "peripheral reported an error";
    case LD_ERR_RANGE:   return "DMA address/length not usable";
    case LD_ERR_MISMATCH: return "MAC mismatch";
    default:             return "unknown error";
    }
}
